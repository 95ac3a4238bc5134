import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { RunningGateway } from '../../../local/local-gateway';
import { db, dynamoCallCounter, tableName } from '../../../shared/db/client';
import { advanceClock, resetClock } from '../../../shared/base/clock';
import { crmClient, type CrmClient } from '../../support/crm-client';
import { install, signTestAccessToken, startTestGateway, unique } from '../../support/harness';

let gateway: RunningGateway;
let api: CrmClient;
let hubId: number;
let appId: number;

beforeAll(async () => {
  gateway = await startTestGateway();
  const installed = await install(gateway);
  api = crmClient(gateway, installed.accessToken);
  hubId = installed.hubId;
  appId = installed.appId;
});

afterAll(async () => {
  await gateway.close();
});

afterEach(() => {
  resetClock();
});

function domain(): string {
  return `${unique('acme')}.example`.toLowerCase();
}

/** Every item of a hub's partition except the account and install rows, by sort-key prefix. */
async function companyItemsOf(hub: number): Promise<string[]> {
  const result = await db.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': `HUB#${hub}` },
      ConsistentRead: true,
    }),
  );
  return (result.Items ?? []).map((item) => String(item.sk)).filter((sk) => sk.includes('COMPANY'));
}

describe('POST /crm/v3/objects/companies', () => {
  it('returns 201 with the record, the default properties and a Location header', async () => {
    const response = await api.post('/crm/v3/objects/companies', {
      properties: { name: 'Acme', domain: 'https://www.Acme-Widgets.example/about', city: 'Berlin' },
    });

    expect(response.status).toBe(201);
    const body = response.body;
    expect(body.id).toMatch(/^\d{16}$/);
    expect(body.properties).toEqual({
      name: 'Acme',
      domain: 'acme-widgets.example',
      city: 'Berlin',
      hs_object_id: body.id,
      createdate: body.createdAt,
      hs_lastmodifieddate: body.updatedAt,
    });
    expect(body).toMatchObject({ archived: false });
    expect(body.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(response.headers.get('location')).toBe(`${gateway.baseUrl}/crm/v3/objects/companies/${body.id}`);
  });

  it('costs exactly one TransactWriteItems and nothing else', async () => {
    dynamoCallCounter.reset();

    const response = await api.post('/crm/v3/objects/companies', { properties: { name: 'Budget', domain: domain() } });

    expect(response.status).toBe(201);
    expect(dynamoCallCounter.callsApartFromRetries()).toEqual({ TransactWriteItemsCommand: 1 });
  });

  it('answers 400 VALIDATION_ERROR when neither name nor domain is given', async () => {
    const response = await api.post('/crm/v3/objects/companies', { properties: { city: 'Paris' } });

    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      status: 'error',
      category: 'VALIDATION_ERROR',
      correlationId: expect.any(String),
    });
  });

  it('returns one error per bad property', async () => {
    const response = await api.post('/crm/v3/objects/companies', {
      properties: { name: 'X', nope: '1', industry: 'NOPE', hs_object_id: '5', numberofemployees: 'ten' },
    });

    expect(response.status).toBe(400);
    expect(response.body.errors?.map((error) => [error.context.propertyName?.[0], error.code])).toEqual([
      ['nope', 'PROPERTY_DOESNT_EXIST'],
      ['industry', 'INVALID_OPTION'],
      ['hs_object_id', 'READ_ONLY_VALUE'],
      ['numberofemployees', 'INVALID_LONG'],
    ]);
  });

  it('answers 409 CONFLICT naming the existing id when the normalized domain is taken', async () => {
    const taken = domain();
    const first = await api.post('/crm/v3/objects/companies', { properties: { domain: taken } });

    const second = await api.post('/crm/v3/objects/companies', {
      properties: { name: 'Copy', domain: `HTTP://WWW.${taken.toUpperCase()}/path?q=1` },
    });

    expect(second.status).toBe(409);
    expect(second.body.category).toBe('CONFLICT');
    expect(second.body.message).toContain(first.body.id);
    expect(second.body.context?.id).toEqual([first.body.id]);
  });

  it('answers 409 when the domain is among the additional domains of another company', async () => {
    const extra = domain();
    const first = await api.post('/crm/v3/objects/companies', {
      properties: { name: 'Holder', domain: domain(), hs_additional_domains: `x-${extra};${extra}` },
    });

    const second = await api.post('/crm/v3/objects/companies', { properties: { domain: extra } });

    expect(second.status).toBe(409);
    expect(second.body.context?.id).toEqual([first.body.id]);
  });

  it('gives exactly one 201 and 19 x 409 for 20 parallel creates with one domain, and leaves no orphan items', async () => {
    const fresh = await install(gateway);
    const client = crmClient(gateway, fresh.accessToken);
    const shared = domain();

    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        client.post('/crm/v3/objects/companies', { properties: { name: `Racer ${index}`, domain: shared } }),
      ),
    );

    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(19);
    const winner = responses.find((response) => response.status === 201)?.body.id;
    expect((await companyItemsOf(fresh.hubId)).sort()).toEqual([
      `COMPANY#${winner}`,
      `COMPANY_UNIQUE#domain#${shared}`,
    ]);
  });

  it('leaves nothing behind when a create fails inside the transaction', async () => {
    const fresh = await install(gateway);
    const client = crmClient(gateway, fresh.accessToken);

    const response = await client.post('/crm/v3/objects/companies', {
      properties: { name: 'Orphan check', domain: domain() },
      associations: [
        { to: { id: '1000000000000999' }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 13 }] },
      ],
    });

    expect(response.status).toBe(400);
    expect(await companyItemsOf(fresh.hubId)).toEqual([]);
  });

  it('rejects a domain that cannot be a host name', async () => {
    const response = await api.post('/crm/v3/objects/companies', { properties: { domain: 'not a domain' } });

    expect(response.status).toBe(400);
    expect(response.body.errors?.[0]?.code).toBe('INVALID_DOMAIN');
  });
});

describe('GET /crm/v3/objects/companies/{companyId}', () => {
  it('returns the default properties when none are asked for, with a single GetItem', async () => {
    const created = await api.post('/crm/v3/objects/companies', { properties: { name: 'Reader', city: 'Rome' } });
    dynamoCallCounter.reset();

    const response = await api.get(`/crm/v3/objects/companies/${created.body.id}`);

    expect(response.status).toBe(200);
    expect(Object.keys(response.body.properties ?? {}).sort()).toEqual([
      'createdate',
      'domain',
      'hs_lastmodifieddate',
      'hs_object_id',
      'name',
    ]);
    expect(response.body.properties?.domain).toBeNull();
    expect(dynamoCallCounter.callsApartFromRetries()).toEqual({ GetItemCommand: 1 });
  });

  it('returns requested properties, null for unset ones, whether repeated or comma-joined', async () => {
    const created = await api.post('/crm/v3/objects/companies', { properties: { name: 'Reader', city: 'Rome' } });

    const joined = await api.get(`/crm/v3/objects/companies/${created.body.id}?properties=city,industry,unknown_thing`);
    const repeated = await api.get(
      `/crm/v3/objects/companies/${created.body.id}?properties=city&properties=industry&properties=unknown_thing`,
    );

    expect(joined.body.properties).toEqual({ city: 'Rome', industry: null });
    expect(repeated.body.properties).toEqual(joined.body.properties);
  });

  it('returns the history of a property, newest first, with source', async () => {
    const created = await api.post('/crm/v3/objects/companies', { properties: { name: 'First' } });
    advanceClock(1000);
    await api.patch(`/crm/v3/objects/companies/${created.body.id}`, { properties: { name: 'Second' } });

    const response = await api.get(`/crm/v3/objects/companies/${created.body.id}?propertiesWithHistory=name`);

    expect(response.body.propertiesWithHistory?.name?.map((entry) => entry.value)).toEqual(['Second', 'First']);
    expect(response.body.propertiesWithHistory?.name?.[0]).toMatchObject({
      sourceType: 'INTEGRATION',
      sourceId: String(appId),
      timestamp: expect.any(String),
    });
  });

  it('answers 404 for a missing numeric id', async () => {
    const response = await api.get('/crm/v3/objects/companies/1000000000000001');

    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({
      status: 'error',
      message: 'resource not found',
      category: 'OBJECT_NOT_FOUND',
    });
  });

  it('answers 404 with the numeric hint for a non-numeric id', async () => {
    const response = await api.get('/crm/v3/objects/companies/abc');

    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({
      message: 'Object not found.  objectId are usually numeric.',
      context: { id: ['abc'] },
    });
  });

  it('finds a company by domain with idProperty=domain', async () => {
    const name = domain();
    const created = await api.post('/crm/v3/objects/companies', { properties: { domain: name } });

    const response = await api.get(`/crm/v3/objects/companies/${name}?idProperty=domain`);

    expect(response.status).toBe(200);
    expect(response.body.id).toBe(created.body.id);
  });

  it('answers 403 MISSING_SCOPES without crm.objects.companies.read', async () => {
    const token = signTestAccessToken({ appId, hubId, scopes: ['crm.objects.companies.write'] });

    const response = await crmClient(gateway, token).get('/crm/v3/objects/companies/1');

    expect(response.status).toBe(403);
    expect(response.body.category).toBe('MISSING_SCOPES');
  });
});

describe('PATCH /crm/v3/objects/companies/{companyId}', () => {
  it('changes only the given properties and clears with an empty string', async () => {
    const created = await api.post('/crm/v3/objects/companies', {
      properties: { name: 'Patchy', city: 'Oslo', phone: '123' },
    });

    const response = await api.patch(`/crm/v3/objects/companies/${created.body.id}`, {
      properties: { city: 'Bergen', phone: '' },
    });
    const read = await api.get(`/crm/v3/objects/companies/${created.body.id}?properties=name,city,phone`);

    expect(response.status).toBe(200);
    expect(read.body.properties).toEqual({ name: 'Patchy', city: 'Bergen', phone: null });
  });

  it('moves lifecyclestage forward', async () => {
    const created = await api.post('/crm/v3/objects/companies', {
      properties: { name: 'Stage', lifecyclestage: 'lead' },
    });

    await api.patch(`/crm/v3/objects/companies/${created.body.id}`, { properties: { lifecyclestage: 'customer' } });
    const read = await api.get(`/crm/v3/objects/companies/${created.body.id}?properties=lifecyclestage`);

    expect(read.body.properties?.lifecyclestage).toBe('customer');
  });

  it('leaves lifecyclestage unchanged when an earlier stage is sent', async () => {
    const created = await api.post('/crm/v3/objects/companies', {
      properties: { name: 'Stage', lifecyclestage: 'opportunity' },
    });

    const response = await api.patch(`/crm/v3/objects/companies/${created.body.id}`, {
      properties: { lifecyclestage: 'lead' },
    });
    const read = await api.get(`/crm/v3/objects/companies/${created.body.id}?properties=lifecyclestage`);

    expect(response.status).toBe(200);
    expect(read.body.properties?.lifecyclestage).toBe('opportunity');
  });

  it('accepts an earlier stage after the value was cleared', async () => {
    const created = await api.post('/crm/v3/objects/companies', {
      properties: { name: 'Stage', lifecyclestage: 'customer' },
    });

    await api.patch(`/crm/v3/objects/companies/${created.body.id}`, { properties: { lifecyclestage: '' } });
    await api.patch(`/crm/v3/objects/companies/${created.body.id}`, { properties: { lifecyclestage: 'subscriber' } });
    const read = await api.get(`/crm/v3/objects/companies/${created.body.id}?properties=lifecyclestage`);

    expect(read.body.properties?.lifecyclestage).toBe('subscriber');
  });

  it('answers 409 when the new domain belongs to another company, and frees the old one on change', async () => {
    const takenDomain = domain();
    const oldDomain = domain();
    await api.post('/crm/v3/objects/companies', { properties: { domain: takenDomain } });
    const mover = await api.post('/crm/v3/objects/companies', { properties: { domain: oldDomain } });

    const clash = await api.patch(`/crm/v3/objects/companies/${mover.body.id}`, {
      properties: { domain: takenDomain },
    });
    const move = await api.patch(`/crm/v3/objects/companies/${mover.body.id}`, { properties: { domain: domain() } });
    const reuse = await api.post('/crm/v3/objects/companies', { properties: { domain: oldDomain } });

    expect(clash.status).toBe(409);
    expect(move.status).toBe(200);
    expect(reuse.status).toBe(201);
  });

  it('keeps domain uniqueness across 10 concurrent updates to one domain', async () => {
    const target = domain();
    const created = await Promise.all(
      Array.from({ length: 10 }, () => api.post('/crm/v3/objects/companies', { properties: { domain: domain() } })),
    );

    const responses = await Promise.all(
      created.map((company) =>
        api.patch(`/crm/v3/objects/companies/${company.body.id}`, { properties: { domain: target } }),
      ),
    );

    expect(responses.map((response) => response.status).filter((status) => status === 200)).toHaveLength(1);
    expect(responses.map((response) => response.status).filter((status) => status === 409)).toHaveLength(9);
  });

  it('loses no update when 10 requests change different properties of one company at once', async () => {
    const created = await api.post('/crm/v3/objects/companies', { properties: { name: 'Busy' } });
    const names = [
      'city',
      'state',
      'zip',
      'country',
      'phone',
      'address',
      'address2',
      'website',
      'timezone',
      'about_us',
    ];

    const responses = await Promise.all(
      names.map((name) =>
        api.patch(`/crm/v3/objects/companies/${created.body.id}`, { properties: { [name]: `v-${name}` } }),
      ),
    );
    const read = await api.get(`/crm/v3/objects/companies/${created.body.id}?properties=${names.join(',')}`);

    expect(responses.map((response) => response.status)).toEqual(names.map(() => 200));
    expect(read.body.properties).toEqual(Object.fromEntries(names.map((name) => [name, `v-${name}`])));
  });

  it('answers 400, not a 5xx, when the record would exceed the item size limit', async () => {
    const big = 'x'.repeat(65_000);

    const response = await api.post('/crm/v3/objects/companies', {
      properties: { name: 'Huge', description: big, about_us: big, address: big, address2: big },
    });

    expect(response.status).toBe(400);
    expect(response.body.category).toBe('VALIDATION_ERROR');
  });

  it('answers 400 when the update would leave neither name nor domain', async () => {
    const created = await api.post('/crm/v3/objects/companies', { properties: { name: 'Lonely' } });

    const response = await api.patch(`/crm/v3/objects/companies/${created.body.id}`, { properties: { name: '' } });

    expect(response.status).toBe(400);
  });

  it('answers 404 for a missing company', async () => {
    const response = await api.patch('/crm/v3/objects/companies/1000000000000002', { properties: { name: 'x' } });

    expect(response.status).toBe(404);
  });
});

describe('DELETE /crm/v3/objects/companies/{companyId}', () => {
  it('answers 204, hides the record, keeps it readable with archived=true and frees its domain', async () => {
    const freed = domain();
    const created = await api.post('/crm/v3/objects/companies', { properties: { name: 'Binned', domain: freed } });

    const response = await api.delete(`/crm/v3/objects/companies/${created.body.id}`);
    const active = await api.get(`/crm/v3/objects/companies/${created.body.id}`);
    const archived = await api.get(`/crm/v3/objects/companies/${created.body.id}?archived=true`);
    const reuse = await api.post('/crm/v3/objects/companies', { properties: { domain: freed } });

    expect(response.status).toBe(204);
    expect(active.status).toBe(404);
    expect(archived.status).toBe(200);
    expect(archived.body).toMatchObject({ id: created.body.id, archived: true, archivedAt: expect.any(String) });
    expect(reuse.status).toBe(201);
  });

  it('answers 404 for a missing company', async () => {
    const response = await api.delete('/crm/v3/objects/companies/1000000000000003');

    expect(response.status).toBe(404);
  });
});
