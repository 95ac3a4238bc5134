import type { RunningGateway } from '../../../local/local-gateway';
import { crmClient, type CrmClient } from '../../support/crm-client';
import { install, startTestGateway, unique } from '../../support/harness';

let gateway: RunningGateway;
let api: CrmClient;
let tier: string;
let externalId: string;

beforeAll(async () => {
  gateway = await startTestGateway();
  api = crmClient(gateway, (await install(gateway)).accessToken);
  tier = unique('tier').replaceAll('-', '_').toLowerCase();
  externalId = unique('external_id').replaceAll('-', '_').toLowerCase();
  await api.post('/crm/v3/properties/companies', {
    name: tier,
    label: 'Tier',
    type: 'enumeration',
    fieldType: 'checkbox',
    groupName: 'companyinformation',
    options: [
      { label: 'Gold', value: 'gold' },
      { label: 'Silver', value: 'silver' },
    ],
  });
  await api.post('/crm/v3/properties/companies', {
    name: externalId,
    label: 'External id',
    type: 'string',
    fieldType: 'text',
    groupName: 'companyinformation',
    hasUniqueValue: true,
  });
});

afterAll(async () => {
  await gateway.close();
});

describe('custom properties on company records', () => {
  it('stores a value of a custom multi-select property', async () => {
    const response = await api.post('/crm/v3/objects/companies', {
      properties: { name: 'Tiered', [tier]: 'gold;silver' },
    });

    expect(response.status).toBe(201);
    expect(response.body.properties?.[tier]).toBe('gold;silver');
  });

  it('rejects an option the custom property does not have', async () => {
    const response = await api.post('/crm/v3/objects/companies', {
      properties: { name: 'Tiered', [tier]: 'gold;bronze' },
    });

    expect(response.status).toBe(400);
    expect(response.body.errors?.[0]).toMatchObject({ code: 'INVALID_OPTION', context: { propertyName: [tier] } });
  });

  it('returns null for a requested custom property without a value', async () => {
    const created = await api.post('/crm/v3/objects/companies', { properties: { name: 'Plain' } });

    const response = await api.get(`/crm/v3/objects/companies/${created.body.id}?properties=${tier},not_a_property`);

    expect(response.body.properties).toEqual({ [tier]: null });
  });

  it('answers 409 naming the holder when a unique custom value is taken', async () => {
    const first = await api.post('/crm/v3/objects/companies', {
      properties: { name: 'Holder', [externalId]: 'abc-1' },
    });

    const second = await api.post('/crm/v3/objects/companies', { properties: { name: 'Copy', [externalId]: 'abc-1' } });

    expect(second.status).toBe(409);
    expect(second.body.context).toEqual({ [externalId]: ['abc-1'], id: [first.body.id] });
  });

  it('finds a company by a unique custom property with idProperty', async () => {
    const created = await api.post('/crm/v3/objects/companies', {
      properties: { name: 'Keyed', [externalId]: 'abc-2' },
    });

    const response = await api.get(`/crm/v3/objects/companies/abc-2?idProperty=${externalId}`);

    expect(response.status).toBe(200);
    expect(response.body.id).toBe(created.body.id);
  });

  it('updates by idProperty', async () => {
    const created = await api.post('/crm/v3/objects/companies', {
      properties: { name: 'Keyed', [externalId]: 'abc-3' },
    });

    const response = await api.patch(`/crm/v3/objects/companies/abc-3?idProperty=${externalId}`, {
      properties: { city: 'Graz' },
    });

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: created.body.id, properties: { city: 'Graz' } });
  });

  it('frees a unique custom value when it is cleared', async () => {
    const created = await api.post('/crm/v3/objects/companies', {
      properties: { name: 'Releaser', [externalId]: 'abc-4' },
    });

    await api.patch(`/crm/v3/objects/companies/${created.body.id}`, { properties: { [externalId]: '' } });
    const reuse = await api.post('/crm/v3/objects/companies', { properties: { name: 'Taker', [externalId]: 'abc-4' } });

    expect(reuse.status).toBe(201);
  });
});
