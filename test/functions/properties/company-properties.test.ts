import type { RunningGateway } from '../../../local/local-gateway';
import { crmClient, type CrmClient } from '../../support/crm-client';
import { install, signTestAccessToken, startTestGateway, unique } from '../../support/harness';

let gateway: RunningGateway;
let api: CrmClient;
let other: CrmClient;
let hubId: number;
let appId: number;

beforeAll(async () => {
  gateway = await startTestGateway();
  const first = await install(gateway);
  const second = await install(gateway);
  api = crmClient(gateway, first.accessToken);
  other = crmClient(gateway, second.accessToken);
  hubId = first.hubId;
  appId = first.appId;
});

afterAll(async () => {
  await gateway.close();
});

function customName(): string {
  return unique('tier').replaceAll('-', '_').toLowerCase();
}

describe('GET /crm/v3/properties/companies', () => {
  it('lists the standard properties with lifecycle stages in pipeline order', async () => {
    const response = await api.get('/crm/v3/properties/companies');

    expect(response.status).toBe(200);
    const lifecycle = response.body.results?.find((property) => property.name === 'lifecyclestage') as unknown as {
      options: { value: string }[];
      type: string;
      fieldType: string;
    };
    expect(lifecycle).toMatchObject({ type: 'enumeration', fieldType: 'radio' });
    expect(lifecycle.options.map((option) => option.value)).toEqual([
      'subscriber',
      'lead',
      'marketingqualifiedlead',
      'salesqualifiedlead',
      'opportunity',
      'customer',
      'evangelist',
      'other',
    ]);
  });

  it('lists every property of the reference catalog with its definition fields', async () => {
    const response = await api.get('/crm/v3/properties/companies');

    const names = (response.body.results ?? []).map((property) => property.name);
    for (const name of [
      'name',
      'domain',
      'industry',
      'type',
      'hs_lead_status',
      'hs_object_id',
      'createdate',
      'hs_lastmodifieddate',
      'total_revenue',
      'hs_analytics_num_page_views',
    ]) {
      expect(names).toContain(name);
    }
    for (const property of response.body.results ?? []) {
      expect(property).toEqual(
        expect.objectContaining({
          label: expect.any(String),
          type: expect.any(String),
          fieldType: expect.any(String),
          groupName: expect.any(String),
          description: expect.any(String),
          options: expect.any(Array),
        }),
      );
    }
  });

  it('marks hs_object_id, createdate and hs_lastmodifieddate read-only', async () => {
    const response = await api.get('/crm/v3/properties/companies');

    const readOnly = (response.body.results ?? [])
      .filter((property) => (property.modificationMetadata as { readOnlyValue: boolean }).readOnlyValue)
      .map((property) => property.name);
    expect(readOnly).toEqual(
      expect.arrayContaining(['hs_object_id', 'createdate', 'hs_lastmodifieddate', 'total_revenue']),
    );
  });

  it('accepts a token with crm.objects.companies.read only', async () => {
    const token = signTestAccessToken({ appId, hubId, scopes: ['crm.objects.companies.read'] });

    const response = await crmClient(gateway, token).get('/crm/v3/properties/companies');

    expect(response.status).toBe(200);
  });

  it('answers 403 MISSING_SCOPES without a company read scope', async () => {
    const token = signTestAccessToken({ appId, hubId, scopes: ['timeline'] });

    const response = await crmClient(gateway, token).get('/crm/v3/properties/companies');

    expect(response.status).toBe(403);
    expect(response.body.category).toBe('MISSING_SCOPES');
  });
});

describe('GET /crm/v3/properties/companies/{propertyName}', () => {
  it('returns one standard property', async () => {
    const response = await api.get('/crm/v3/properties/companies/industry');

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      name: 'industry',
      type: 'enumeration',
      fieldType: 'select',
      groupName: 'companyinformation',
    });
    expect(response.body.options?.length).toBeGreaterThan(50);
  });

  it('answers 404 for an unknown property', async () => {
    const response = await api.get('/crm/v3/properties/companies/no_such_property');

    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({
      status: 'error',
      category: 'OBJECT_NOT_FOUND',
      correlationId: expect.any(String),
    });
  });

  it('answers 404 for a custom property of another account', async () => {
    const name = customName();
    await api.post('/crm/v3/properties/companies', {
      name,
      label: name,
      type: 'string',
      fieldType: 'text',
      groupName: 'companyinformation',
    });

    const response = await other.get(`/crm/v3/properties/companies/${name}`);
    const missing = await other.get('/crm/v3/properties/companies/never_defined_anywhere');

    expect(response.status).toBe(404);
    expect({ ...response.body, correlationId: '', message: '', context: {} }).toEqual({
      ...missing.body,
      correlationId: '',
      message: '',
      context: {},
    });
  });
});

describe('POST /crm/v3/properties/companies', () => {
  it('creates a custom property that the list and the get then return', async () => {
    const name = customName();

    const response = await api.post('/crm/v3/properties/companies', {
      name,
      label: 'Tier',
      type: 'enumeration',
      fieldType: 'select',
      groupName: 'companyinformation',
      options: [
        { label: 'Gold', value: 'gold' },
        { label: 'Silver', value: 'silver' },
      ],
    });
    const fetched = await api.get(`/crm/v3/properties/companies/${name}`);
    const list = await api.get('/crm/v3/properties/companies');

    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      name,
      label: 'Tier',
      type: 'enumeration',
      hasUniqueValue: false,
      options: [
        { value: 'gold', displayOrder: 0, hidden: false },
        { value: 'silver', displayOrder: 1 },
      ],
    });
    expect(fetched.body).toEqual(response.body);
    expect(list.body.results?.map((property) => property.name)).toContain(name);
  });

  it('stores hasUniqueValue', async () => {
    const name = customName();

    const response = await api.post('/crm/v3/properties/companies', {
      name,
      label: name,
      type: 'string',
      fieldType: 'text',
      groupName: 'companyinformation',
      hasUniqueValue: true,
    });

    expect(response.status).toBe(201);
    expect(response.body.hasUniqueValue).toBe(true);
  });

  it('answers 409 OBJECT_ALREADY_EXISTS for a duplicate name', async () => {
    const name = customName();
    const definition = { name, label: name, type: 'string', fieldType: 'text', groupName: 'companyinformation' };
    await api.post('/crm/v3/properties/companies', definition);

    const response = await api.post('/crm/v3/properties/companies', definition);

    expect(response.status).toBe(409);
    expect(response.body.category).toBe('OBJECT_ALREADY_EXISTS');
  });

  it('answers 409 OBJECT_ALREADY_EXISTS for the name of a standard property', async () => {
    const response = await api.post('/crm/v3/properties/companies', {
      name: 'domain',
      label: 'Domain',
      type: 'string',
      fieldType: 'text',
      groupName: 'companyinformation',
    });

    expect(response.status).toBe(409);
    expect(response.body.category).toBe('OBJECT_ALREADY_EXISTS');
  });

  it('answers 400 NON_UNIQUE_PROPERTY_LABEL for a label another property uses', async () => {
    const response = await api.post('/crm/v3/properties/companies', {
      name: customName(),
      label: 'Industry',
      type: 'string',
      fieldType: 'text',
      groupName: 'companyinformation',
    });

    expect(response.status).toBe(400);
    expect(response.body.errors?.[0]?.code).toBe('NON_UNIQUE_PROPERTY_LABEL');
  });

  it('lets another account define the same name', async () => {
    const name = customName();
    const definition = { name, label: name, type: 'string', fieldType: 'text', groupName: 'companyinformation' };
    await api.post('/crm/v3/properties/companies', definition);

    const response = await other.post('/crm/v3/properties/companies', definition);

    expect(response.status).toBe(201);
  });

  it('rejects a name with upper-case letters or hyphens', async () => {
    const response = await api.post('/crm/v3/properties/companies', {
      name: 'Bad-Name',
      label: 'x',
      type: 'string',
      fieldType: 'text',
      groupName: 'companyinformation',
    });

    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ category: 'VALIDATION_ERROR', context: { name: ['Bad-Name'] } });
  });

  // Accepted, a property so named would make every create or update setting it answer 500.
  it('rejects constructor, the name of an Object.prototype member, with 400 naming the field', async () => {
    const response = await api.post('/crm/v3/properties/companies', {
      name: 'constructor',
      label: unique('Builder'),
      type: 'string',
      fieldType: 'text',
      groupName: 'companyinformation',
    });

    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      category: 'VALIDATION_ERROR',
      context: { name: ['constructor'] },
      errors: [{ code: 'RESERVED_PROPERTY_NAME', in: 'name' }],
    });
  });

  it.each(['constructor', 'tostring', 'valueof', '__proto__'])(
    'answers a company create that sets the unknown property %s with 400, not 500',
    async (name) => {
      const response = await api.post('/crm/v3/objects/companies', {
        properties: { name: unique('Proto'), [name]: 'x' },
      });

      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ category: 'VALIDATION_ERROR' });
    },
  );

  it('rejects an enumeration without options', async () => {
    const response = await api.post('/crm/v3/properties/companies', {
      name: customName(),
      label: 'x',
      type: 'enumeration',
      fieldType: 'select',
      groupName: 'companyinformation',
    });

    expect(response.status).toBe(400);
  });

  it('rejects a fieldType that does not fit the type', async () => {
    const response = await api.post('/crm/v3/properties/companies', {
      name: customName(),
      label: 'x',
      type: 'number',
      fieldType: 'textarea',
      groupName: 'companyinformation',
    });

    expect(response.status).toBe(400);
    expect(response.body.context).toEqual({ fieldType: ['textarea'] });
  });

  it('answers 403 with only the schema read scope', async () => {
    const token = signTestAccessToken({
      appId,
      hubId,
      scopes: ['crm.schemas.companies.read', 'crm.objects.companies.write'],
    });

    const response = await crmClient(gateway, token).post('/crm/v3/properties/companies', {
      name: customName(),
      label: 'x',
      type: 'string',
      fieldType: 'text',
      groupName: 'companyinformation',
    });

    expect(response.status).toBe(403);
  });
});

describe('POST /crm/v3/properties/companies, unique values', () => {
  it('allows at most 10 properties with unique values per account', async () => {
    const fresh = crmClient(gateway, (await install(gateway)).accessToken);
    const define = () => {
      const name = customName();
      return fresh.post('/crm/v3/properties/companies', {
        name,
        label: name,
        type: 'string',
        fieldType: 'text',
        groupName: 'companyinformation',
        hasUniqueValue: true,
      });
    };
    for (let index = 0; index < 10; index += 1) expect((await define()).status).toBe(201);

    const eleventh = await define();

    expect(eleventh.status).toBe(400);
    expect(eleventh.body.context).toEqual({ hasUniqueValue: ['true'] });
  });
});
