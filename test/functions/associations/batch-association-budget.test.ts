import type { RunningGateway } from '../../../local/local-gateway';
import { batchArchiveAssociations, batchCreateAssociations } from '../../../shared/associations/batch-associations';
import { ServiceUnavailableError } from '../../../shared/base/errors';
import { createRecords, crmClient, type CrmClient } from '../../support/crm-client';
import { install, startTestGateway, type InstalledTokens } from '../../support/harness';

/**
 * A v4 association batch answers with what it wrote: 2,000 pairs over 2,000 companies must not
 * answer 503 at the function's 10 s after every pair was written, telling the client to retry
 * work that was done. Companies are written many to a transaction, and work not started
 * within the batch's time budget is reported per input (never half-written: each company is written
 * all or nothing, with its contacts' side of each pair in the same transaction), so the client sends
 * again only what was not done. The contacts are real records, made before the timed part.
 */
let gateway: RunningGateway;
let installed: InstalledTokens;
let api: CrmClient;

beforeAll(async () => {
  gateway = await startTestGateway();
  installed = await install(gateway);
  api = crmClient(gateway, installed.accessToken);
});

afterAll(async () => {
  await gateway.close();
});

interface BatchJson {
  status: string;
  results: { fromObjectId: number; toObjectId: number }[];
  errors?: { category: string; context: Record<string, string[]> }[];
}
interface ReadJson {
  results: { from: { id: string }; to: { toObjectId: number }[] }[];
}

async function companies(count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < count; start += 100) {
    const inputs = Array.from({ length: Math.min(100, count - start) }, (_, index) => ({
      properties: { name: `Budget ${start + index}` },
    }));
    ids.push(
      ...(
        await api.post<{ results: { id: string }[] }>('/crm/v3/objects/companies/batch/create', { inputs })
      ).body.results.map((result) => result.id),
    );
  }
  return ids;
}

/** One pair per company, each to a new contact of its own (real records: both ends must exist). */
async function pairsOf(ids: readonly string[]) {
  const contacts = await createRecords(api, 'contacts', ids.length);
  return ids.map((id, index) => ({
    from: { id },
    to: { id: contacts[index] ?? '' },
    types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 280 }],
  }));
}
const pairKey = (companyId: string | number, contactId: string | number) => `${companyId}/${contactId}`;

/** The company -> contact pairs stored for these companies (batch read, 1,000 ids a call). */
async function storedPairs(ids: readonly string[]): Promise<Set<string>> {
  const stored = new Set<string>();
  for (let start = 0; start < ids.length; start += 1000) {
    const read = await api.post<ReadJson>('/crm/v4/associations/companies/contacts/batch/read', {
      inputs: ids.slice(start, start + 1000).map((id) => ({ id })),
    });
    for (const result of read.body.results)
      for (const to of result.to) stored.add(pairKey(result.from.id, to.toObjectId));
  }
  return stored;
}

/** The same pairs as the contacts' own records hold them (contact -> company), keyed company first. */
async function storedOnContacts(contactIds: readonly string[]): Promise<Set<string>> {
  const stored = new Set<string>();
  for (let start = 0; start < contactIds.length; start += 1000) {
    const read = await api.post<ReadJson>('/crm/v4/associations/contacts/companies/batch/read', {
      inputs: contactIds.slice(start, start + 1000).map((id) => ({ id })),
    });
    for (const result of read.body.results)
      for (const to of result.to) stored.add(pairKey(to.toObjectId, result.from.id));
  }
  return stored;
}

describe('a v4 association batch answers with what it wrote', () => {
  it('2,000 pairs over 2,000 companies: never 503; each result is written, each input left undone is not, and sending those again finishes the batch', async () => {
    const ids = await companies(2000);
    const inputs = await pairsOf(ids);
    const contactIds = inputs.map((input) => input.to.id);

    const response = await api.post<BatchJson>('/crm/v4/associations/companies/contacts/batch/create', { inputs });
    const stored = await storedPairs(ids);
    const onContacts = await storedOnContacts(contactIds);

    expect([201, 207]).toContain(response.status);
    const undone = (response.body.errors ?? []).map((error) => Number(error.context.input?.[0]));
    expect((response.body.errors ?? []).every((error) => error.category === 'SERVICE_UNAVAILABLE')).toBe(true);
    expect(response.body.results.length + undone.length).toBe(2000);
    expect(response.body.results.every((result) => stored.has(pairKey(result.fromObjectId, result.toObjectId)))).toBe(
      true,
    );
    expect(
      undone.every((index) => !stored.has(pairKey(inputs[index]?.from.id ?? '', inputs[index]?.to.id ?? ''))),
    ).toBe(true);
    // Each company's write holds its contact's side too: the two sides agree, pair for pair.
    expect([...onContacts].sort()).toEqual([...stored].sort());
    let left = undone.map((index) => inputs[index]);
    for (let round = 0; round < 5 && left.length > 0; round += 1) {
      const again = await api.post<BatchJson>('/crm/v4/associations/companies/contacts/batch/create', { inputs: left });
      expect([201, 207]).toContain(again.status);
      left = (again.body.errors ?? []).map((error) => left[Number(error.context.input?.[0])]);
    }
    expect(left).toEqual([]);
    expect((await storedPairs(ids)).size).toBe(2000);
    expect((await storedOnContacts(contactIds)).size).toBe(2000);
  }, 120_000);

  it('work not started within the budget is an error per input and is not written', async () => {
    const ids = await companies(50);
    const inputs = await pairsOf(ids);
    const actor = { hubId: installed.hubId, appId: installed.appId, userId: installed.userId };

    const result = await batchCreateAssociations(actor, 'companies', 'contacts', inputs, { budgetMs: 0 });

    expect(result.results).toEqual([]);
    expect(result.errors?.map((error) => error.category)).toEqual(Array(50).fill('SERVICE_UNAVAILABLE'));
    expect(result.errors?.map((error) => error.context.input?.[0])).toEqual(inputs.map((_, index) => String(index)));
    expect((await storedPairs(ids)).size).toBe(0);
    expect((await storedOnContacts(inputs.map((input) => input.to.id))).size).toBe(0);
  });

  it('an archive left undone answers 503 and sending it again removes the pairs', async () => {
    const ids = await companies(20);
    const inputs = await pairsOf(ids);
    const contactIds = inputs.map((input) => input.to.id);
    await api.post('/crm/v4/associations/companies/contacts/batch/create', { inputs });
    const actor = { hubId: installed.hubId, appId: installed.appId, userId: installed.userId };
    const archive = inputs.map((input) => ({ from: input.from, to: [input.to] }));

    const refused = batchArchiveAssociations(actor, 'companies', 'contacts', archive, { budgetMs: 0 });
    await expect(refused).rejects.toBeInstanceOf(ServiceUnavailableError);
    const kept = await storedPairs(ids);
    const keptOnContacts = await storedOnContacts(contactIds);
    const again = await api.post('/crm/v4/associations/companies/contacts/batch/archive', { inputs: archive });

    expect(kept.size).toBe(20);
    expect(keptOnContacts.size).toBe(20);
    expect(again.status).toBe(204);
    expect((await storedPairs(ids)).size).toBe(0);
    expect((await storedOnContacts(contactIds)).size).toBe(0);
  });
});
