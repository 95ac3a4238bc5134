import type { RunningGateway } from '../../../local/local-gateway';
import { dynamoCallCounter } from '../../../shared/db/client';
import { crmClient, type CrmClient } from '../../support/crm-client';
import { install, startTestGateway, unique } from '../../support/harness';

let gateway: RunningGateway;
let api: CrmClient;

beforeAll(async () => {
  gateway = await startTestGateway();
  api = crmClient(gateway, (await install(gateway)).accessToken);
});

afterAll(async () => {
  await gateway.close();
});

function domain(): string {
  return `${unique('batch')}.example`.toLowerCase();
}

/**
 * `count` companies to read, update or archive, made in batch creates of at most 10 plain records:
 * one transaction each (4 items a company and a count), where a larger batch runs several at once,
 * and on a loaded machine one of those can sit past the DynamoDB client's 2 s socket timeout.
 */
async function createMany(count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < count; start += 10) {
    const response = await api.post('/crm/v3/objects/companies/batch/create', {
      inputs: Array.from({ length: Math.min(10, count - start) }, (_, index) => ({
        properties: { name: `Batch ${start + index}` },
      })),
    });
    expect(response.status).toBe(201);
    ids.push(...(response.body.results ?? []).map((company) => company.id));
  }
  return ids;
}

describe('POST /crm/v3/objects/companies/batch/create', () => {
  it('answers 201 with the COMPLETE envelope and every record', async () => {
    const response = await api.post('/crm/v3/objects/companies/batch/create', {
      inputs: [{ properties: { name: 'One' } }, { properties: { name: 'Two', domain: domain() } }],
    });

    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      status: 'COMPLETE',
      startedAt: expect.any(String),
      completedAt: expect.any(String),
    });
    expect(response.body.results?.map((company) => company.properties.name).sort()).toEqual(['One', 'Two']);
  });

  it('answers 207 with a CONFLICT error for an input whose domain is taken', async () => {
    const taken = domain();
    await api.post('/crm/v3/objects/companies', { properties: { domain: taken } });

    const response = await api.post('/crm/v3/objects/companies/batch/create', {
      inputs: [{ properties: { name: 'Fine' } }, { properties: { domain: taken }, objectWriteTraceId: 'trace-2' }],
    });

    expect(response.status).toBe(207);
    expect(response.body.numErrors).toBe(1);
    expect(response.body.errors?.[0]).toMatchObject({
      status: 'error',
      category: 'CONFLICT',
      errors: [],
      links: {},
      objectWriteTraceId: 'trace-2',
    });
    expect(response.body.results).toHaveLength(1);
  });

  it('answers 400 and writes nothing when one input is invalid', async () => {
    const response = await api.post('/crm/v3/objects/companies/batch/create', {
      inputs: [{ properties: { name: 'Good' } }, { properties: { city: 'no name' } }],
    });

    expect(response.status).toBe(400);
    expect(response.body.context?.input).toEqual(['1']);
  });

  it('reads the custom property definitions once for the whole batch, and writes its 20 companies in two transactions', async () => {
    const propertyName = unique('batch_prop').replaceAll('-', '_').toLowerCase();
    await api.post('/crm/v3/properties/companies', {
      name: propertyName,
      label: 'x',
      type: 'string',
      fieldType: 'text',
      groupName: 'companyinformation',
    });
    dynamoCallCounter.reset();

    const response = await api.post('/crm/v3/objects/companies/batch/create', {
      inputs: Array.from({ length: 20 }, (_, index) => ({
        properties: { name: `Custom ${index}`, [propertyName]: 'v' },
      })),
    });

    expect(response.status).toBe(201);
    // Four items a company (record, projection, two ordered-index keys) and a count: two groups of at most 50 items.
    expect(dynamoCallCounter.callsApartFromRetries()).toEqual({ QueryCommand: 1, TransactWriteItemsCommand: 2 });
  });

  it('answers 400 VALIDATION_ERROR for more than 100 inputs', async () => {
    const response = await api.post('/crm/v3/objects/companies/batch/create', {
      inputs: Array.from({ length: 101 }, () => ({ properties: { name: 'Too many' } })),
    });

    expect(response.status).toBe(400);
    expect(response.body.category).toBe('VALIDATION_ERROR');
  });
});

describe('POST /crm/v3/objects/companies/batch/read', () => {
  it('reads 100 records with one BatchGetItem', async () => {
    const ids = await createMany(100);
    dynamoCallCounter.reset();

    const response = await api.post('/crm/v3/objects/companies/batch/read', {
      inputs: ids.map((id) => ({ id })),
      properties: ['name', 'domain'],
      propertiesWithHistory: [],
    });

    expect(response.status).toBe(200);
    expect(response.body.results).toHaveLength(100);
    expect(dynamoCallCounter.callsApartFromRetries()).toEqual({ BatchGetItemCommand: 1 });
  });

  it('answers 207 with OBJECT_NOT_FOUND naming the missing ids', async () => {
    const [id] = await createMany(1);

    const response = await api.post('/crm/v3/objects/companies/batch/read', {
      inputs: [{ id }, { id: '1000000000000777' }, { id: 'abc' }],
      properties: ['name'],
      propertiesWithHistory: [],
    });

    expect(response.status).toBe(207);
    expect(response.body).toMatchObject({ status: 'COMPLETE', numErrors: 1 });
    expect(response.body.results?.map((company) => company.id)).toEqual([id]);
    expect(response.body.errors?.[0]).toMatchObject({
      status: 'error',
      category: 'OBJECT_NOT_FOUND',
      message: expect.any(String),
      context: { ids: ['1000000000000777', 'abc'] },
      errors: [],
      links: {},
    });
  });

  it('reads by a custom property with unique values', async () => {
    const propertyName = unique('external_id').replaceAll('-', '_').toLowerCase();
    await api.post('/crm/v3/properties/companies', {
      name: propertyName,
      label: 'External id',
      type: 'string',
      fieldType: 'text',
      groupName: 'companyinformation',
      hasUniqueValue: true,
    });
    const created = await api.post('/crm/v3/objects/companies', {
      properties: { name: 'Keyed', [propertyName]: 'ext-1' },
    });

    const response = await api.post('/crm/v3/objects/companies/batch/read', {
      inputs: [{ id: 'ext-1' }],
      idProperty: propertyName,
      properties: [propertyName],
      propertiesWithHistory: [],
    });

    expect(response.status).toBe(200);
    expect(response.body.results?.[0]).toMatchObject({ id: created.body.id, properties: { [propertyName]: 'ext-1' } });
  });

  it('answers 400 for an idProperty without unique values', async () => {
    const response = await api.post('/crm/v3/objects/companies/batch/read', {
      inputs: [{ id: 'x' }],
      idProperty: 'city',
      properties: [],
      propertiesWithHistory: [],
    });

    expect(response.status).toBe(400);
  });
});

describe('POST /crm/v3/objects/companies/batch/update', () => {
  it('answers 200 with the updated records', async () => {
    const ids = await createMany(2);

    const response = await api.post('/crm/v3/objects/companies/batch/update', {
      inputs: ids.map((id) => ({ id, properties: { city: 'Lyon' } })),
    });

    expect(response.status).toBe(200);
    expect(response.body.results?.map((company) => company.properties.city)).toEqual(['Lyon', 'Lyon']);
  });

  it('answers 207 naming missing ids', async () => {
    const [id] = await createMany(1);

    const response = await api.post('/crm/v3/objects/companies/batch/update', {
      inputs: [
        { id, properties: { city: 'Nice' } },
        { id: '1000000000000778', properties: { city: 'Nice' } },
      ],
    });

    expect(response.status).toBe(207);
    expect(response.body.errors?.[0]).toMatchObject({
      category: 'OBJECT_NOT_FOUND',
      context: { ids: ['1000000000000778'] },
    });
  });
});

describe('POST /crm/v3/objects/companies/batch/upsert', () => {
  it('creates when the domain is new and updates when it exists, flagging new', async () => {
    const existing = domain();
    const created = await api.post('/crm/v3/objects/companies', { properties: { name: 'Old', domain: existing } });
    const fresh = domain();

    const response = await api.post('/crm/v3/objects/companies/batch/upsert', {
      inputs: [
        { id: existing, idProperty: 'domain', properties: { name: 'Renamed' } },
        { id: fresh, idProperty: 'domain', properties: { name: 'New one' } },
      ],
    });

    expect(response.status).toBe(200);
    const byDomain = new Map((response.body.results ?? []).map((company) => [company.properties.domain, company]));
    expect(byDomain.get(existing)).toMatchObject({ id: created.body.id, new: false, properties: { name: 'Renamed' } });
    expect(byDomain.get(fresh)).toMatchObject({ new: true, properties: { name: 'New one' } });
  });

  it('creates exactly one company when parallel upserts race on a new domain', async () => {
    const contested = domain();

    const responses = await Promise.all(
      Array.from({ length: 5 }, (_, index) =>
        api.post('/crm/v3/objects/companies/batch/upsert', {
          inputs: [{ id: contested, idProperty: 'domain', properties: { name: `Racer ${index}` } }],
        }),
      ),
    );

    const results = responses.flatMap((response) => response.body.results ?? []);
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(results.map((company) => company.id)).size).toBe(1);
    expect(results.filter((company) => company.new)).toHaveLength(1);
  });

  it('answers 400 when idProperty is not unique', async () => {
    const response = await api.post('/crm/v3/objects/companies/batch/upsert', {
      inputs: [{ id: 'x', idProperty: 'name', properties: {} }],
    });

    expect(response.status).toBe(400);
  });
});

describe('POST /crm/v3/objects/companies/batch/archive', () => {
  it('answers 204 and archives every record', async () => {
    const ids = await createMany(3);

    const response = await api.post('/crm/v3/objects/companies/batch/archive', { inputs: ids.map((id) => ({ id })) });
    const read = await api.post('/crm/v3/objects/companies/batch/read', {
      inputs: ids.map((id) => ({ id })),
      properties: [],
      propertiesWithHistory: [],
    });
    const archived = await api.post('/crm/v3/objects/companies/batch/read?archived=true', {
      inputs: ids.map((id) => ({ id })),
      properties: [],
      propertiesWithHistory: [],
    });

    expect(response.status).toBe(204);
    expect(read.body.results).toHaveLength(0);
    expect(archived.body.results?.map((company) => company.archived)).toEqual([true, true, true]);
  });
});
