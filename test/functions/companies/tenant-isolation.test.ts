import type { RunningGateway } from '../../../bin/local-gateway';
import { routes } from '../../../shared/routes';
import { crmClient, type ApiResponse, type CrmClient, type Json } from '../../support/crm-client';
import { bearer, install, signTestAccessToken, startTestGateway, unique } from '../../support/harness';

let gateway: RunningGateway;
let owner: CrmClient;
let stranger: CrmClient;
let ownedId: string;
let ownedDomain: string;
let strangerCompanyId: string;
let hubId: number;
let appId: number;

beforeAll(async () => {
  gateway = await startTestGateway();
  const first = await install(gateway);
  const second = await install(gateway);
  owner = crmClient(gateway, first.accessToken);
  stranger = crmClient(gateway, second.accessToken);
  hubId = first.hubId;
  appId = first.appId;
  ownedDomain = `${unique('owned')}.example`.toLowerCase();
  ownedId = String((await owner.post('/crm/v3/objects/companies', { properties: { name: 'Owned', domain: ownedDomain } })).body.id);
  strangerCompanyId = String((await stranger.post('/crm/v3/objects/companies', { properties: { name: 'Stranger' } })).body.id);
});

afterAll(async () => {
  await gateway.close();
});

const missingId = '1000000000000123';

/** What must not differ between "another hub's record" and "no record": everything but the correlation id and the id asked for. */
function shape(response: ApiResponse<Json>): unknown {
  const { correlationId, ...rest } = response.body;
  void correlationId;
  return { status: response.status, body: JSON.stringify(rest).replaceAll(ownedId, 'ID').replaceAll(missingId, 'ID') };
}

async function expectSameAsMissing(request: (id: string) => Promise<ApiResponse<Json>>): Promise<void> {
  const foreign = await request(ownedId);
  const missing = await request(missingId);
  expect(foreign.status).toBe(404);
  expect(shape(foreign)).toEqual(shape(missing));
}

async function expectOwnedUntouched(): Promise<void> {
  const read = await owner.get(`/crm/v3/objects/companies/${ownedId}?properties=name,domain`);
  expect(read.status).toBe(200);
  expect(read.body.properties).toMatchObject({ name: 'Owned', domain: ownedDomain });
}

describe('a company of another account', () => {
  it('answers GET like a missing one', async () => {
    await expectSameAsMissing((id) => stranger.get(`/crm/v3/objects/companies/${id}`));
  });

  it('answers GET by idProperty=domain like a missing one', async () => {
    const foreign = await stranger.get(`/crm/v3/objects/companies/${ownedDomain}?idProperty=domain`);

    expect(foreign.status).toBe(404);
  });

  it('answers PATCH like a missing one and stays unchanged', async () => {
    await expectSameAsMissing((id) => stranger.patch(`/crm/v3/objects/companies/${id}`, { properties: { name: 'Hijacked' } }));
    await expectOwnedUntouched();
  });

  it('answers DELETE like a missing one and stays active', async () => {
    await expectSameAsMissing((id) => stranger.delete(`/crm/v3/objects/companies/${id}`));
    await expectOwnedUntouched();
  });

  it('answers association PUT and DELETE like a missing one', async () => {
    await expectSameAsMissing((id) => stranger.put(`/crm/v3/objects/companies/${id}/associations/contacts/1/280`));
    await expectSameAsMissing((id) => stranger.delete(`/crm/v3/objects/companies/${id}/associations/contacts/1/280`));
  });

  it('answers the v4 and v3 association routes like a missing one', async () => {
    await expectSameAsMissing((id) => stranger.get(`/crm/v4/objects/companies/${id}/associations/contacts`));
    await expectSameAsMissing((id) => stranger.get(`/crm/v3/objects/companies/${id}/associations/contacts`));
    await expectSameAsMissing((id) => stranger.put(`/crm/v4/objects/companies/${id}/associations/contacts/1`, [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 280 }]));
    await expectSameAsMissing((id) => stranger.put(`/crm/v4/objects/companies/${id}/associations/default/contacts/1`));
    await expectSameAsMissing((id) => stranger.delete(`/crm/v4/objects/companies/${id}/associations/contacts/1`));
  });

  it('cannot be associated from a contact of another account, nor listed among its companies', async () => {
    await owner.put(`/crm/v3/objects/companies/${ownedId}/associations/contacts/31337/280`);
    const put = (id: string) => stranger.put(`/crm/v4/objects/contacts/31337/associations/companies/${id}`, [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 279 }]);
    const foreign = await put(ownedId);
    const missing = await put(missingId);
    const listed = await stranger.get('/crm/v4/objects/contacts/31337/associations/companies');

    expect(foreign.status).toBe(400);
    expect(shape(foreign)).toEqual(shape(missing));
    expect(listed.body.results).toEqual([]);
    const own = await owner.get('/crm/v4/objects/contacts/31337/associations/companies');
    expect(own.body.results).toHaveLength(1);
  });

  it('cannot be the target of an association from another account', async () => {
    const foreign = await stranger.put(`/crm/v3/objects/companies/${strangerCompanyId}/associations/companies/${ownedId}/450`);
    const missing = await stranger.put(`/crm/v3/objects/companies/${strangerCompanyId}/associations/companies/${missingId}/450`);

    expect(foreign.status).toBe(400);
    expect(shape(foreign)).toEqual(shape(missing));
  });

  it('is reported missing by batch read', async () => {
    const response = await stranger.post('/crm/v3/objects/companies/batch/read', { inputs: [{ id: ownedId }], properties: [], propertiesWithHistory: [] });

    expect(response.status).toBe(207);
    expect(response.body.errors?.[0]).toMatchObject({ category: 'OBJECT_NOT_FOUND', context: { ids: [ownedId] } });
  });

  it('is reported missing by batch update and stays unchanged', async () => {
    const response = await stranger.post('/crm/v3/objects/companies/batch/update', { inputs: [{ id: ownedId, properties: { name: 'Hijacked' } }] });

    expect(response.status).toBe(207);
    expect(response.body.errors?.[0]?.category).toBe('OBJECT_NOT_FOUND');
    await expectOwnedUntouched();
  });

  it('survives batch archive by another account', async () => {
    const response = await stranger.post('/crm/v3/objects/companies/batch/archive', { inputs: [{ id: ownedId }] });

    expect(response.status).toBe(204);
    await expectOwnedUntouched();
  });

  it('is not listed for another account', async () => {
    const response = await stranger.get('/crm/v3/objects/companies?limit=100');

    expect(response.body.results?.map((company) => company.id)).toEqual([strangerCompanyId]);
  });

  it('does not block its domain in another account', async () => {
    const response = await stranger.post('/crm/v3/objects/companies/batch/upsert', { inputs: [{ id: ownedDomain, idProperty: 'domain', properties: { name: 'Mine too' } }] });

    expect(response.status).toBe(200);
    expect(response.body.results?.[0]).toMatchObject({ new: true });
    expect(response.body.results?.[0]?.id).not.toBe(ownedId);
    await expectOwnedUntouched();
  });
});

/** Every CRM route, from the table: a route taking a crm.* scope is a company-data route. */
const companyRoutes = routes.filter((route) => Array.isArray(route.scopes) && route.scopes.some((scope: string) => scope.startsWith('crm.')));

function concretePath(path: string): string {
  return path.replace('{companyId}', '1000000000000001').replace('{propertyName}', 'name').replace('{toObjectType}', 'contacts')
    .replace('{toObjectId}', '1').replace('{associationTypeId}', '280').replace('{fromObjectType}', 'companies')
    .replace('{objectType}', 'companies').replace('{objectId}', '1000000000000001').replace('{groupName}', 'companyinformation');
}

describe('every company route', () => {
  it('covers every route under /crm/', () => {
    expect(companyRoutes.map((route) => route.name).sort()).toEqual(routes.filter((route) => route.path.startsWith('/crm/')).map((route) => route.name).sort());
  });

  it.each(companyRoutes.map((route) => [route.name, route] as const))('%s answers 403 MISSING_SCOPES with an unrelated scope', async (_name, route) => {
    const token = signTestAccessToken({ appId, hubId, scopes: ['timeline'] });

    const response = await fetch(`${gateway.baseUrl}${concretePath(route.path)}`, {
      method: route.method, headers: { ...bearer(token), 'content-type': 'application/json' }, body: route.body === 'json' ? '{}' : undefined,
    });

    expect(response.status).toBe(403);
    expect(((await response.json()) as Json).category).toBe('MISSING_SCOPES');
  });

  it.each(companyRoutes.map((route) => [route.name, route] as const))('%s answers 401 without a token', async (_name, route) => {
    const response = await fetch(`${gateway.baseUrl}${concretePath(route.path)}`, {
      method: route.method, headers: { 'content-type': 'application/json' }, body: route.body === 'json' ? '{}' : undefined,
    });

    expect(response.status).toBe(401);
  });
});
