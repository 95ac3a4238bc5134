import type { RunningGateway } from '../../../local/local-gateway';
import type { LocalWebhooks } from '../../../local/local-webhooks';
import { startTestStream } from '../../support/test-stream';
import { createRecords, crmClient, type CrmClient } from '../../support/crm-client';
import { install, startTestGateway } from '../../support/harness';

/**
 * Records near (800 of 1,000) and at their association limit, as the three association records
 * answers report them once the local runtime has read the table's stream (settle(): the stream read
 * up to now, no waiting on time): one company associated with 1,000 contacts, one with 800.
 */
let gateway: RunningGateway;
let tracking: LocalWebhooks;
let crm: CrmClient;
let contacts: string[];
const hubs = new Set<number>();

const unlabeled = [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 280 }];

async function company(name: string): Promise<string> {
  const response = await crm.post<{ id: string }>('/crm/v3/objects/companies', { properties: { name } });
  expect(response.status).toBe(201);
  return response.body.id;
}

/** Associates the company with these contacts, 500 per batch (both sides are written in each). */
async function associate(companyId: string, contactIds: readonly string[]): Promise<void> {
  for (let start = 0; start < contactIds.length; start += 500) {
    const inputs = contactIds
      .slice(start, start + 500)
      .map((id) => ({ from: { id: companyId }, to: { id }, types: unlabeled }));
    const response = await crm.post('/crm/v4/associations/companies/contacts/batch/create', { inputs });
    expect(response.status).toBe(201);
  }
}

async function dissociate(companyId: string, contactIds: readonly string[]): Promise<void> {
  const inputs = [{ from: { id: companyId }, to: contactIds.map((id) => ({ id })) }];
  const response = await crm.post('/crm/v4/associations/companies/contacts/batch/archive', { inputs });
  expect(response.status).toBe(204);
}

const limits = async <T = unknown>(path: string) =>
  (await crm.get<T>(`/crm/v3/limits/associations/records${path}`)).body;

const companyType = { objectTypeId: '0-2', singularLabel: 'Company', pluralLabel: 'Companies' };
const contactType = { objectTypeId: '0-1', singularLabel: 'Contact', pluralLabel: 'Contacts' };

beforeAll(async () => {
  gateway = await startTestGateway();
  tracking = await startTestStream(hubs);
  const installed = await install(gateway);
  hubs.add(installed.hubId);
  crm = crmClient(gateway, installed.accessToken);
  contacts = await createRecords(crm, 'contacts', 1000);
});

afterAll(async () => {
  await tracking.stop();
  await gateway.close();
});

describe('records near and at their association limit', () => {
  it('reports a company with 1,000 contacts at the limit and one with 800 near it, then neither once they lose some', async () => {
    const full = await company('Full company');
    const crowded = await company('Crowded company');
    await associate(full, contacts);
    await associate(crowded, contacts.slice(0, 800));
    await tracking.settle();

    const from = await limits('/from');
    const to = await limits('/0-2/to');
    const pair = await limits('/0-2/0-1');
    const reverse = await limits('/0-1/0-2');

    expect(from).toEqual({ results: [{ ...companyType, hasRecordsAtLimit: true, hasRecordsNearLimit: true }] });
    expect(to).toEqual({ results: [{ ...contactType, hasRecordsAtLimit: true, hasRecordsNearLimit: true }] });
    expect(pair).toEqual({
      limit: 1000,
      totalRecordsNearLimit: 1,
      totalRecordsAtLimit: 1,
      nearLimitFromRecordSamples: [{ objectId: Number(crowded), label: 'Crowded company', usage: 800, percentage: 80 }],
      atLimitFromRecordSamples: [{ objectId: Number(full), label: 'Full company' }],
    });
    expect(reverse).toMatchObject({ totalRecordsNearLimit: 0, totalRecordsAtLimit: 0 });

    await dissociate(full, contacts.slice(0, 1));
    await dissociate(crowded, contacts.slice(0, 1));
    await tracking.settle();

    expect(await limits('/0-2/0-1')).toEqual({
      limit: 1000,
      totalRecordsNearLimit: 1,
      totalRecordsAtLimit: 0,
      nearLimitFromRecordSamples: [{ objectId: Number(full), label: 'Full company', usage: 999, percentage: 99.9 }],
      atLimitFromRecordSamples: [],
    });

    await dissociate(full, contacts.slice(1, 300));
    await tracking.settle();

    expect(await limits('/from')).toEqual({ results: [] });
    expect(await limits('/0-2/to')).toEqual({ results: [] });
    expect(await limits('/0-2/0-1')).toEqual({
      limit: 1000,
      totalRecordsNearLimit: 0,
      totalRecordsAtLimit: 0,
      nearLimitFromRecordSamples: [],
      atLimitFromRecordSamples: [],
    });
  });

  it("labels a custom record near the limit by its schema's primary display property", async () => {
    const schema = await crm.post<{ objectTypeId: string }>('/crm-object-schemas/v3/schemas', {
      name: 'crowded_widgets',
      labels: { singular: 'Crowded widget', plural: 'Crowded widgets' },
      properties: [{ name: 'serial', label: 'Serial', type: 'string', fieldType: 'text' }],
      requiredProperties: ['serial'],
      primaryDisplayProperty: 'serial',
      associatedObjects: ['CONTACT'],
    });
    expect(schema.status).toBe(201);
    const typeId = schema.body.objectTypeId;
    const widget = await crm.post<{ id: string }>(`/crm/v3/objects/${typeId}`, { properties: { serial: 'W-800' } });
    expect(widget.status).toBe(201);
    const inputs = contacts.slice(0, 800).map((id) => ({ from: { id: widget.body.id }, to: { id } }));
    const associated = await crm.post(`/crm/v4/associations/${typeId}/contacts/batch/associate/default`, { inputs });
    expect(associated.status).toBe(200);
    await tracking.settle();

    expect(await limits(`/${typeId}/0-1`)).toEqual({
      limit: 1000,
      totalRecordsNearLimit: 1,
      totalRecordsAtLimit: 0,
      nearLimitFromRecordSamples: [{ objectId: Number(widget.body.id), label: 'W-800', usage: 800, percentage: 80 }],
      atLimitFromRecordSamples: [],
    });
    expect(await limits('/from')).toMatchObject({
      results: [{ objectTypeId: typeId, hasRecordsNearLimit: true, hasRecordsAtLimit: false }],
    });
  });
});
