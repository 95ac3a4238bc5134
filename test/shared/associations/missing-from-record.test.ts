import { createRecord, crmClient, type BatchErrorJson, type CrmClient } from '../../support/crm-client';
import { install, useTestGateway } from '../../support/harness';

/**
 * A v4 association write whose *from* record is missing or archived answers as one whose *to*
 * record is: 400 VALIDATION_ERROR "One or more associations are invalid", the id in
 * context.INVALID_OBJECT_IDS (a batch create: 207, that input in errors), and writes nothing.
 */
const gateway = useTestGateway();
let api: CrmClient;
beforeAll(async () => {
  api = crmClient(gateway, (await install(gateway)).accessToken);
});

type Stored = 'contacts' | 'companies' | 'deals' | 'tickets';
const singular: Record<Stored, string> = {
  contacts: 'CONTACT',
  companies: 'COMPANY',
  deals: 'DEAL',
  tickets: 'TICKET',
};

/** From, to, and a HubSpot-defined type id of the direction (unlabeled, primary, parent/child). */
const pairs: [Stored, Stored, number][] = [
  ['contacts', 'companies', 279],
  ['contacts', 'companies', 1],
  ['companies', 'contacts', 280],
  ['companies', 'contacts', 2],
  ['companies', 'companies', 450],
  ['companies', 'companies', 13],
  ['companies', 'companies', 14],
  ['deals', 'companies', 5],
  ['deals', 'contacts', 3],
  ['tickets', 'deals', 28],
  ['contacts', 'contacts', 449],
];

type FromState = 'missing' | 'archived';
const forms = ['default', 'labelled'] as const;
const cases = pairs.flatMap(([from, to, typeId]) =>
  (['missing', 'archived'] as const).flatMap((state) => forms.map((form) => ({ from, to, typeId, state, form }))),
);

/** A from record in the state asked: an id no record has, or a record archived. */
async function fromRecord(type: Stored, state: FromState): Promise<string> {
  if (state === 'missing') return '999999999997';
  const id = await createRecord(api, type);
  expect((await api.delete(`/crm/v3/objects/${type}/${id}`)).status).toBe(204);
  return id;
}

const spec = (associationTypeId: number) => ({ associationCategory: 'HUBSPOT_DEFINED', associationTypeId });

interface PageJson {
  results: { toObjectId: number }[];
}

describe('a v4 PUT from a missing or archived record', () => {
  it.each(cases)('$form PUT $from -> $to ($typeId), from $state: 400 naming the from id', async (entry) => {
    const { from, to, typeId, state, form } = entry;
    const fromId = await fromRecord(from, state);
    const toId = await createRecord(api, to);
    const put =
      form === 'default'
        ? await api.put(`/crm/v4/objects/${from}/${fromId}/associations/default/${to}/${toId}`)
        : await api.put(`/crm/v4/objects/${from}/${fromId}/associations/${to}/${toId}`, [spec(typeId)]);
    expect({ status: put.status, body: put.body }).toMatchObject({
      status: 400,
      body: {
        status: 'error',
        message: 'One or more associations are invalid',
        category: 'VALIDATION_ERROR',
        context: { INVALID_OBJECT_IDS: [`${singular[from]}=${fromId} is not valid`] },
      },
    });
    expect(typeof put.body.correlationId).toBe('string');
    // Nothing written on the other record.
    const back = await api.get<PageJson>(`/crm/v4/objects/${to}/${toId}/associations/${from}`);
    expect(back.body.results.map((result) => String(result.toObjectId))).not.toContain(fromId);
  });
});

describe('a v4 batch create naming a missing or archived from record', () => {
  it.each(pairs)(
    '%s -> %s (%d): 207, that input in errors naming the from id, the others written',
    async (from, to, typeId) => {
      const missing = await fromRecord(from, 'missing');
      const archived = await fromRecord(from, 'archived');
      const live = await createRecord(api, from);
      const toId = await createRecord(api, to);
      const response = await api.post<{ results: unknown[]; errors: BatchErrorJson[] }>(
        `/crm/v4/associations/${from}/${to}/batch/create`,
        {
          inputs: [missing, archived, live].map((id) => ({ from: { id }, to: { id: toId }, types: [spec(typeId)] })),
        },
      );
      expect(response.status).toBe(207);
      expect(response.body.results).toHaveLength(1);
      expect(
        response.body.errors.map((error) => ({
          category: error.category,
          message: error.message,
          ids: error.context.INVALID_OBJECT_IDS,
        })),
      ).toEqual(
        [missing, archived].map((id) => ({
          category: 'VALIDATION_ERROR',
          message: 'One or more associations are invalid',
          ids: [`${singular[from]}=${id} is not valid`],
        })),
      );
    },
  );
});

describe('a v4 PUT racing the archive of its from record', () => {
  it.each(forms)('%s PUT companies -> companies: the archived company is never held by the live one', async (form) => {
    for (let round = 0; round < 6; round += 1) {
      const fromId = await createRecord(api, 'companies');
      const toId = await createRecord(api, 'companies');
      const [archive, put] = await Promise.all([
        api.delete(`/crm/v3/objects/companies/${fromId}`),
        form === 'default'
          ? api.put(`/crm/v4/objects/companies/${fromId}/associations/default/companies/${toId}`)
          : api.put(`/crm/v4/objects/companies/${fromId}/associations/companies/${toId}`, [spec(13)]),
      ]);
      expect(archive.status).toBe(204);
      expect([200, 201, 400]).toContain(put.status);
      const held = await api.get<PageJson>(`/crm/v4/objects/companies/${toId}/associations/companies`);
      expect({ round, held: held.body.results.map((result) => String(result.toObjectId)) }).toEqual({
        round,
        held: [],
      });
    }
  });
});

describe('a company PUT from an archived company, under every spelling of the type and both APIs', () => {
  const spellings = ['companies', '0-2', 'company', 'COMPANIES'];
  it.each(spellings)('v4 from %s: 400 naming the archived company', async (token) => {
    const fromId = await fromRecord('companies', 'archived');
    const toId = await createRecord(api, 'companies');
    for (const put of [
      await api.put(`/crm/v4/objects/${token}/${fromId}/associations/default/companies/${toId}`),
      await api.put(`/crm/v4/objects/${token}/${fromId}/associations/${token}/${toId}`, [spec(450)]),
    ]) {
      expect({ status: put.status, ids: put.body.context?.INVALID_OBJECT_IDS }).toEqual({
        status: 400,
        ids: [`COMPANY=${fromId} is not valid`],
      });
    }
  });

  it('v3 company PUT from an archived company: refused, nothing written', async () => {
    const fromId = await fromRecord('companies', 'archived');
    const toId = await createRecord(api, 'companies');
    const put = await api.put(`/crm/v3/objects/companies/${fromId}/associations/companies/${toId}/450`);
    expect(put.status).toBeGreaterThanOrEqual(400);
    expect(put.status).toBeLessThan(500);
    const held = await api.get<PageJson>(`/crm/v4/objects/companies/${toId}/associations/companies`);
    expect(held.body.results).toEqual([]);
  });
});
