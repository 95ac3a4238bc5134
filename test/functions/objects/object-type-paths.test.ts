import { FilterOperatorEnum } from '@hubspot/api-client/lib/codegen/crm/objects/models/Filter';
import type { RunningGateway } from '../../../local/local-gateway';
import { crmClient, type CrmClient } from '../../support/crm-client';
import { install, startTestGateway, unique } from '../../support/harness';
import { useSdkClient } from '../../support/sdk-client';

let gateway: RunningGateway;
let api: CrmClient;

beforeAll(async () => {
  gateway = await startTestGateway();
  api = crmClient(gateway, (await install(gateway)).accessToken);
});

afterAll(async () => {
  await gateway.close();
});

const domain = () => `${unique('objtype')}.example`.toLowerCase();

describe.each(['0-2', 'COMPANIES', 'Companies', 'company'])('/crm/v3/objects/%s', (token) => {
  it('creates, reads, lists and searches companies as /crm/v3/objects/companies does', async () => {
    const name = domain();
    const created = await api.post(`/crm/v3/objects/${token}`, { properties: { name: 'Typed', domain: name } });

    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`${gateway.baseUrl}/crm/v3/objects/companies/${created.body.id}`);
    const id = created.body.id ?? '';

    const read = await api.get(`/crm/v3/objects/${token}/${id}`);
    const readByName = await api.get(`/crm/v3/objects/companies/${id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(readByName.body);

    const listed = await api.get(`/crm/v3/objects/${token}?limit=100&properties=domain`);
    expect(listed.status).toBe(200);
    expect(listed.body.results?.some((record) => record.id === id)).toBe(true);

    const found = await api.post(`/crm/v3/objects/${token}/search`, {
      filterGroups: [{ filters: [{ propertyName: 'domain', operator: 'EQ', value: name }] }],
    });
    expect(found.status).toBe(200);
    expect(found.body.results?.map((record) => record.id)).toEqual([id]);
  });

  it('updates, batch-reads and archives companies', async () => {
    const created = await api.post(`/crm/v3/objects/${token}`, { properties: { name: 'Before' } });
    const id = created.body.id ?? '';

    const updated = await api.patch(`/crm/v3/objects/${token}/${id}`, { properties: { name: 'After' } });
    expect(updated.status).toBe(200);
    expect(updated.body.properties?.name).toBe('After');

    const batch = await api.post(`/crm/v3/objects/${token}/batch/read`, { inputs: [{ id }], properties: ['name'] });
    expect(batch.status).toBe(200);
    expect(batch.body.results?.[0]?.properties.name).toBe('After');

    expect((await api.delete(`/crm/v3/objects/${token}/${id}`)).status).toBe(204);
    expect((await api.get(`/crm/v3/objects/companies/${id}`)).status).toBe(404);
  });
});

describe('a type this service does not know', () => {
  it.each([
    ['GET', '/crm/v3/objects/widgets', 'widgets'],
    ['POST', '/crm/v3/objects/widgets', 'widgets'],
    ['GET', '/crm/v3/objects/widgets/123', 'widgets'],
    ['POST', '/crm/v3/objects/widgets/search', 'widgets'],
    ['GET', '/crm/v3/objects/quotes', 'quotes'],
    ['GET', '/crm/v3/objects/0-14/123', '0-14'],
    ['POST', '/crm/v3/objects/communications/batch/create', 'communications'],
    ['POST', '/crm/v3/objects/QUOTES/merge', 'QUOTES'],
  ])('%s %s answers 400 VALIDATION_ERROR naming the token', async (method, path, token) => {
    const body =
      method === 'GET'
        ? undefined
        : path.endsWith('/search')
          ? {}
          : path.endsWith('/merge')
            ? { primaryObjectId: '1', objectIdToMerge: '2' }
            : path.includes('/batch/')
              ? { inputs: [{ properties: { dealname: 'x' } }] }
              : { properties: { name: 'x' } };
    const response = method === 'GET' ? await api.get(path) : await api.post(path, body);

    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ status: 'error', category: 'VALIDATION_ERROR' });
    expect(response.body.message).toContain(token);
    expect(response.body.context).toEqual({ objectType: [token] });
  });
});

describe('a type without merge', () => {
  it.each(['MEETINGS', 'notes', '0-7', 'line_items'])(
    'POST /crm/v3/objects/%s/merge answers 400 VALIDATION_ERROR naming the token',
    async (token) => {
      const response = await api.post(`/crm/v3/objects/${token}/merge`, { primaryObjectId: '1', objectIdToMerge: '2' });

      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ category: 'VALIDATION_ERROR', context: { objectType: [token] } });
      expect(response.body.message).toMatch(/cannot be merged/);
    },
  );
});

describe('/crm/v3/properties/{objectType}', () => {
  it.each(['0-2', 'COMPANIES', 'company'])('serves the company properties and groups on %s', async (token) => {
    const property = await api.get(`/crm/v3/properties/${token}/domain`);
    const groups = await api.get(`/crm/v3/properties/${token}/groups`);

    expect(property.status).toBe(200);
    expect(property.body).toEqual((await api.get('/crm/v3/properties/companies/domain')).body);
    expect(groups.status).toBe(200);
    expect(groups.body).toEqual((await api.get('/crm/v3/properties/companies/groups')).body);
  });

  it.each([
    ['/crm/v3/properties/quotes', 'quotes'],
    ['/crm/v3/properties/widgets/name', 'widgets'],
    ['/crm/v3/properties/0-14/groups', '0-14'],
  ])('answers 400 VALIDATION_ERROR naming the token: %s', async (path, token) => {
    const response = await api.get(path);

    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ category: 'VALIDATION_ERROR', context: { objectType: [token] } });
    expect(response.body.message).toContain(token);
  });
});

describe('@hubspot/api-client crm.objects', () => {
  const sdk = useSdkClient();

  it('creates a company with basicApi.create("companies") (201) and pages it with getPage("0-2") (200)', async () => {
    const name = domain();

    const created = await sdk.client.crm.objects.basicApi.create('companies', {
      properties: { name: 'SDK generic', domain: name },
      associations: [],
    });
    const page = await sdk.client.crm.objects.basicApi.getPage('0-2', 100, undefined, ['domain']);
    const read = await sdk.client.crm.objects.basicApi.getById('0-2', created.id, ['domain']);
    const found = await sdk.client.crm.objects.searchApi.doSearch('0-2', {
      filterGroups: [{ filters: [{ propertyName: 'domain', operator: FilterOperatorEnum.Eq, value: name }] }],
    });

    expect(created.properties).toMatchObject({ name: 'SDK generic', domain: name, hs_object_id: created.id });
    expect(created.createdAt).toBeInstanceOf(Date);
    expect(page.results.map((record) => record.id)).toContain(created.id);
    expect(read.properties.domain).toBe(name);
    expect(found.results.map((record) => record.id)).toEqual([created.id]);
  });

  it('reads the company properties with crm.properties on the type id', async () => {
    const properties = await sdk.client.crm.properties.coreApi.getAll('0-2');

    expect(properties.results.map((property) => property.name)).toContain('domain');
  });

  it('throws the 400 of an unknown type', async () => {
    await expect(sdk.client.crm.objects.basicApi.getPage('widgets')).rejects.toMatchObject({
      code: 400,
      body: { category: 'VALIDATION_ERROR', context: { objectType: ['widgets'] } },
    });
  });
});
