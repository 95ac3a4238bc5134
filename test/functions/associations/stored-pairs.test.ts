import type { RunningGateway } from '../../../local/local-gateway';
import { dynamoCallCounter } from '../../../shared/db/client';
import { createRecord, crmClient, type CrmClient } from '../../support/crm-client';
import { install, startTestGateway } from '../../support/harness';

let gateway: RunningGateway;
let api: CrmClient;

beforeAll(async () => {
  gateway = await startTestGateway();
  api = crmClient(gateway, (await install(gateway)).accessToken);
});

afterAll(async () => {
  await gateway.close();
});

type Stored = 'contacts' | 'companies' | 'deals' | 'tickets';
const singular: Record<Stored, string> = {
  contacts: 'CONTACT',
  companies: 'COMPANY',
  deals: 'DEAL',
  tickets: 'TICKET',
};

interface PageJson {
  results: { toObjectId: number; associationTypes: { category: string; typeId: number; label: string | null }[] }[];
}

/** Each pair of stored types with HubSpot's unlabeled type ids both ways (the wire facts' table 7.1). */
const pairs: [Stored, Stored, number, number][] = [
  ['contacts', 'companies', 279, 280],
  ['contacts', 'deals', 4, 3],
  ['contacts', 'tickets', 15, 16],
  ['companies', 'deals', 342, 341],
  ['companies', 'tickets', 340, 339],
  ['deals', 'tickets', 27, 28],
  ['contacts', 'contacts', 449, 449],
  ['companies', 'companies', 450, 450],
  ['deals', 'deals', 451, 451],
  ['tickets', 'tickets', 452, 452],
];

const spec = (associationTypeId: number) => ({ associationCategory: 'HUBSPOT_DEFINED', associationTypeId });
const unlabeled = (typeId: number) => ({ category: 'HUBSPOT_DEFINED', typeId, label: null });

describe.each(pairs)('%s and %s', (from, to, forward, backward) => {
  it('a default PUT is stored on both records: each side reads it with its own type id, in one read', async () => {
    const fromId = await createRecord(api, from);
    const toId = await createRecord(api, to);

    const put = await api.put(`/crm/v4/objects/${from}/${fromId}/associations/default/${to}/${toId}`);
    expect(put.status).toBe(200);

    dynamoCallCounter.reset();
    const forwardPage = await api.get<PageJson>(`/crm/v4/objects/${from}/${fromId}/associations/${to}`);
    expect(dynamoCallCounter.callsApartFromRetries()).toEqual({ GetItemCommand: 1 });
    const backwardPage = await api.get<PageJson>(`/crm/v4/objects/${to}/${toId}/associations/${from}`);

    expect(forwardPage.body.results).toEqual([{ toObjectId: Number(toId), associationTypes: [unlabeled(forward)] }]);
    expect(backwardPage.body.results).toEqual([
      { toObjectId: Number(fromId), associationTypes: [unlabeled(backward)] },
    ]);
  });

  it('refuses a missing other record with 400 INVALID_OBJECT_IDS naming it, and writes nothing', async () => {
    const fromId = await createRecord(api, from);
    const missing = '999999999999';

    const put = await api.put(`/crm/v4/objects/${from}/${fromId}/associations/${to}/${missing}`, [spec(forward)]);

    expect(put.status).toBe(400);
    expect(put.body).toMatchObject({
      status: 'error',
      message: 'One or more associations are invalid',
      category: 'VALIDATION_ERROR',
      context: { INVALID_OBJECT_IDS: [`${singular[to]}=${missing} is not valid`] },
    });
    const page = await api.get<PageJson>(`/crm/v4/objects/${from}/${fromId}/associations/${to}`);
    expect(page.body.results).toEqual([]);
  });

  it('archiving the other record removes the association from this one', async () => {
    const fromId = await createRecord(api, from);
    const toId = await createRecord(api, to);
    await api.put(`/crm/v4/objects/${from}/${fromId}/associations/default/${to}/${toId}`);

    expect((await api.delete(`/crm/v3/objects/${to}/${toId}`)).status).toBe(204);

    const page = await api.get<PageJson>(`/crm/v4/objects/${from}/${fromId}/associations/${to}`);
    expect(page.body.results).toEqual([]);
    const again = await api.put(`/crm/v4/objects/${from}/${fromId}/associations/default/${to}/${toId}`);
    expect(again.status).toBe(400);
  });

  it('a create with an inline association writes both sides; one to a missing record is 400 and creates nothing', async () => {
    const toId = await createRecord(api, to);
    const required = requiredOf(from);

    const created = await api.post(`/crm/v3/objects/${from}`, {
      properties: required,
      associations: [{ to: { id: toId }, types: [spec(forward)] }],
    });
    expect(created.status).toBe(201);
    const back = await api.get<PageJson>(`/crm/v4/objects/${to}/${toId}/associations/${from}`);
    expect(back.body.results.map((result) => String(result.toObjectId))).toContain(String(created.body.id));

    // In an account of its own, so nothing else it holds can hide a record written by mistake.
    const own = crmClient(gateway, (await install(gateway)).accessToken);
    const target = await createRecord(own, to);
    const refused = await own.post(`/crm/v3/objects/${from}/batch/create`, {
      inputs: [
        { properties: requiredOf(from), associations: [{ to: { id: target }, types: [spec(forward)] }] },
        { properties: requiredOf(from), associations: [{ to: { id: '999999999998' }, types: [spec(forward)] }] },
      ],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.context?.INVALID_OBJECT_IDS).toEqual([`${singular[to]}=999999999998 is not valid`]);
    const listed = await own.get<{ results: { id: string }[] }>(`/crm/v3/objects/${from}`);
    expect(listed.body.results.map((record) => record.id)).toEqual(from === to ? [target] : []);
  });
});

let sequence = 0;
function requiredOf(type: Stored): Record<string, string> {
  sequence += 1;
  const tag = `${Date.now().toString(36)}${sequence}`;
  if (type === 'contacts') return { email: `pair${tag}@pairs.example` };
  if (type === 'deals') return { dealname: `Pair ${tag}`, dealstage: 'appointmentscheduled' };
  if (type === 'tickets') return { subject: `Pair ${tag}`, hs_pipeline_stage: '1' };
  return { name: `Pair ${tag}` };
}

describe('primary company', () => {
  const typesBetween = async (from: Stored, fromId: string, to: Stored, toId: string): Promise<number[]> => {
    const page = await api.get<PageJson>(`/crm/v4/objects/${from}/${fromId}/associations/${to}`);
    return (
      page.body.results
        .find((result) => String(result.toObjectId) === toId)
        ?.associationTypes.map((type) => type.typeId) ?? []
    );
  };
  const primaryOf = async (contactId: string): Promise<string | null | undefined> =>
    (await api.get(`/crm/v3/objects/contacts/${contactId}?properties=associatedcompanyid`)).body.properties
      ?.associatedcompanyid;

  it('a contact has one: setting another from either side moves it, the former stays associated without the label', async () => {
    const contact = await createRecord(api, 'contacts');
    const [first, second, third] = [
      await createRecord(api, 'companies'),
      await createRecord(api, 'companies'),
      await createRecord(api, 'companies'),
    ];
    await api.put(`/crm/v4/objects/contacts/${contact}/associations/companies/${first}`, [spec(1)]);
    expect(await primaryOf(contact)).toBe(first);

    // From the contact: type 1 to the second company.
    expect(
      (await api.put(`/crm/v4/objects/contacts/${contact}/associations/companies/${second}`, [spec(1)])).status,
    ).toBe(201);
    expect(await typesBetween('contacts', contact, 'companies', first)).toEqual([279]);
    expect(await typesBetween('companies', first, 'contacts', contact)).toEqual([280]);
    expect(await typesBetween('contacts', contact, 'companies', second)).toEqual([1, 279]);
    expect(await typesBetween('companies', second, 'contacts', contact)).toEqual([2, 280]);
    expect(await primaryOf(contact)).toBe(second);

    // From a company: type 2 (company to its primary contact) on the third.
    expect((await api.put(`/crm/v3/objects/companies/${third}/associations/contacts/${contact}/2`)).status).toBe(200);
    expect(await typesBetween('contacts', contact, 'companies', second)).toEqual([279]);
    expect(await typesBetween('companies', second, 'contacts', contact)).toEqual([280]);
    expect(await typesBetween('contacts', contact, 'companies', third)).toEqual([1, 279]);
    expect(await primaryOf(contact)).toBe(third);
  });

  it('a deal created by a company batch with a primary association takes it from its former primary company', async () => {
    const deal = await createRecord(api, 'deals');
    const former = await createRecord(api, 'companies');
    await api.put(`/crm/v4/objects/deals/${deal}/associations/companies/${former}`, [spec(5)]);

    const created = await api.post<{ results: { id: string }[] }>('/crm/v3/objects/companies/batch/create', {
      inputs: [{ properties: { name: 'New primary' }, associations: [{ to: { id: deal }, types: [spec(6)] }] }],
    });

    expect(created.status).toBe(201);
    const newCompany = created.body.results[0]?.id ?? '';
    expect(await typesBetween('deals', deal, 'companies', newCompany)).toEqual([5, 341]);
    expect(await typesBetween('deals', deal, 'companies', former)).toEqual([341]);
    expect(await typesBetween('companies', former, 'deals', deal)).toEqual([342]);
  });
});

describe('a v4 batch create with many missing records', () => {
  it('answers 207 naming each missing one, writes the others, and checks the missing ones in a few calls', async () => {
    const company = await createRecord(api, 'companies');
    const [real] = [await createRecord(api, 'contacts')];
    const missing = Array.from({ length: 120 }, (_, index) => String(990_000_000_000 + index));
    const inputs = [real ?? '', ...missing].map((id) => ({ from: { id: company }, to: { id }, types: [spec(280)] }));

    dynamoCallCounter.reset();
    const response = await api.post<{ results: unknown[]; errors: { context: Record<string, string[]> }[] }>(
      '/crm/v4/associations/companies/contacts/batch/create',
      { inputs },
    );
    const calls = dynamoCallCounter.totalApartFromRetries();

    expect(response.status).toBe(207);
    expect(response.body.results).toHaveLength(1);
    expect(response.body.errors.map((error) => error.context.INVALID_OBJECT_IDS?.[0]).sort()).toEqual(
      missing.map((id) => `CONTACT=${id} is not valid`).sort(),
    );
    // Two chunks of at most 90 pairs, each: a read, a refused transaction, its explanation, one check of every target, the retry.
    expect(calls).toBeLessThan(20);
    const page = await api.get<PageJson>(`/crm/v4/objects/companies/${company}/associations/contacts`);
    expect(page.body.results.map((result) => String(result.toObjectId))).toEqual([real]);
  });
});
