import type { RunningGateway } from '../../../local/local-gateway';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { newRecordId } from '../../../shared/records/record-id';
import { maxRecordIdentities, maxMergeHops } from '../../../shared/records/merged-ids';
import { db, dynamoCallCounter, tableName } from '../../../shared/db/client';
import { mergedRecordKey, recordKey } from '../../../shared/db/keys';
import { companyKeys } from '../../../shared/companies/company-keys';
import { createRecord, crmClient, type CompanyJson, type CrmClient } from '../../support/crm-client';
import { install, startTestGateway } from '../../support/harness';
import { getRecord } from '../../../shared/records/read-records';
import { companyObjectType } from '../../../shared/objects/object-types';

let gateway: RunningGateway;
let api: CrmClient;
let hubId: number;
let stranger: CrmClient;

beforeAll(async () => {
  gateway = await startTestGateway();
  const installed = await install(gateway);
  hubId = installed.hubId;
  api = crmClient(gateway, installed.accessToken);
  stranger = crmClient(gateway, (await install(gateway)).accessToken);
});

afterAll(async () => {
  await gateway.close();
});

const suffix = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;

async function company(properties: Record<string, string>, client = api): Promise<string> {
  const response = await client.post('/crm/v3/objects/companies', { properties });
  expect(response.status).toBe(201);
  return String(response.body.id);
}

const read = (id: string, query = 'properties=name,domain,hs_additional_domains,city,industry,hs_merged_object_ids') =>
  api.get<CompanyJson>(`/crm/v3/objects/companies/${id}?${query}`);
type MergeJson = CompanyJson & { category?: string; context?: Record<string, string[]> };
const merge = (primaryObjectId: string, objectIdToMerge: string) =>
  api.post<MergeJson>('/crm/v3/objects/companies/merge', { primaryObjectId, objectIdToMerge });

interface SearchJson {
  total: number;
  results: { id: string }[];
}
const searchByName = (name: string) =>
  api.post<SearchJson>('/crm/v3/objects/companies/search', {
    filterGroups: [{ filters: [{ propertyName: 'name', operator: 'EQ', value: name }] }],
  });

describe('POST /crm/v3/objects/companies/merge', () => {
  it('answers 200 with a new record: primary values win, the secondary fills gaps, both domains stay, old ids listed', async () => {
    const tag = suffix();
    const primary = await company({ name: `Primary ${tag}`, domain: `primary-${tag}.example`, city: 'Berlin' });
    const secondary = await company({
      name: `Secondary ${tag}`,
      domain: `secondary-${tag}.example`,
      city: 'Paris',
      industry: 'ACCOUNTING',
    });

    const response = await merge(primary, secondary);

    expect(response.status).toBe(200);
    expect(response.body.id).not.toBe(primary);
    expect(response.body.id).not.toBe(secondary);
    expect(response.body.archived).toBe(false);
    expect(response.body.properties).toMatchObject({
      name: `Primary ${tag}`,
      city: 'Berlin',
      industry: 'ACCOUNTING',
      domain: `primary-${tag}.example`,
      hs_additional_domains: `secondary-${tag}.example`,
      hs_merged_object_ids: `${primary};${secondary}`,
      hs_object_id: response.body.id,
    });
  });

  it('makes either old id read the merged record with its new id, in single and batch reads', async () => {
    const tag = suffix();
    const primary = await company({ name: `P ${tag}` });
    const secondary = await company({ name: `S ${tag}` });
    const merged = (await merge(primary, secondary)).body;

    const [byPrimary, bySecondary, byNew] = [await read(primary), await read(secondary), await read(merged.id)];
    const batch = await api.post<{ results: CompanyJson[] }>('/crm/v3/objects/companies/batch/read', {
      inputs: [{ id: primary }, { id: secondary }],
      properties: ['name'],
    });

    expect([byPrimary.status, bySecondary.status, byNew.status]).toEqual([200, 200, 200]);
    expect(byPrimary.body).toEqual(byNew.body);
    expect(bySecondary.body).toEqual(byNew.body);
    expect(batch.body.results.map((result) => result.id)).toEqual([merged.id]);
  });

  it("moves the associations of both records to the new one, and the other company's side with them", async () => {
    const primary = await company({ name: 'Assoc P' });
    const secondary = await company({ name: 'Assoc S' });
    const parent = await company({ name: 'Parent' });
    // Created one after the other, so the first has the lower id and is listed first.
    const firstContact = await createRecord(api, 'contacts');
    const secondContact = await createRecord(api, 'contacts');
    expect(
      (
        await api.put(`/crm/v4/objects/companies/${primary}/associations/contacts/${firstContact}`, [
          { associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 2 },
        ])
      ).status,
    ).toBe(201);
    expect(
      (
        await api.put(`/crm/v4/objects/companies/${secondary}/associations/contacts/${secondContact}`, [
          { associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 280 },
        ])
      ).status,
    ).toBe(201);
    await api.put(`/crm/v4/objects/companies/${secondary}/associations/companies/${parent}`, [
      { associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 14 },
    ]);
    await api.put(`/crm/v4/objects/companies/${primary}/associations/companies/${secondary}`, [
      { associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 450 },
    ]);

    const merged = (await merge(primary, secondary)).body.id;

    const contacts = await api.get<{ results: { toObjectId: number; associationTypes: { typeId: number }[] }[] }>(
      `/crm/v4/objects/companies/${merged}/associations/contacts`,
    );
    expect(
      contacts.body.results.map((result) => [
        String(result.toObjectId),
        result.associationTypes.map((type) => type.typeId),
      ]),
    ).toEqual([
      [firstContact, [2, 280]],
      [secondContact, [280]],
    ]);
    const companiesOfMerged = await api.get<{
      results: { toObjectId: number; associationTypes: { typeId: number }[] }[];
    }>(`/crm/v4/objects/companies/${merged}/associations/companies`);
    expect(
      companiesOfMerged.body.results.map((result) => [
        String(result.toObjectId),
        result.associationTypes.map((type) => type.typeId),
      ]),
    ).toEqual([[parent, [14]]]);
    const ofParent = await api.get<{ results: { toObjectId: number; associationTypes: { typeId: number }[] }[] }>(
      `/crm/v4/objects/companies/${parent}/associations/companies`,
    );
    expect(
      ofParent.body.results.map((result) => [
        String(result.toObjectId),
        result.associationTypes.map((type) => type.typeId),
      ]),
    ).toEqual([[merged, [13]]]);
    // The contacts are stored records too: their side names the merged company, with the primary label kept.
    const ofContacts = await Promise.all(
      [firstContact, secondContact].map((contact) =>
        api.get<{ results: { toObjectId: number; associationTypes: { typeId: number }[] }[] }>(
          `/crm/v4/objects/contacts/${contact}/associations/companies`,
        ),
      ),
    );
    expect(
      ofContacts.map((page) =>
        page.body.results.map((result) => [
          String(result.toObjectId),
          result.associationTypes.map((type) => type.typeId),
        ]),
      ),
    ).toEqual([[[merged, [1, 279]]], [[merged, [279]]]]);
  });

  it('moves unique values: every domain of both records belongs to the merged record', async () => {
    const tag = suffix();
    const primary = await company({ name: 'D1', domain: `d1-${tag}.example` });
    const secondary = await company({
      name: 'D2',
      domain: `d2-${tag}.example`,
      hs_additional_domains: `d3-${tag}.example`,
    });

    const merged = (await merge(primary, secondary)).body;
    const byDomain = await api.get<CompanyJson>(`/crm/v3/objects/companies/d3-${tag}.example?idProperty=domain`);
    const taken = await api.post('/crm/v3/objects/companies', {
      properties: { name: 'Dup', domain: `d2-${tag}.example` },
    });

    expect(merged.properties.hs_additional_domains?.split(';').sort()).toEqual([
      `d2-${tag}.example`,
      `d3-${tag}.example`,
    ]);
    expect(byDomain.body.id).toBe(merged.id);
    expect(taken.status).toBe(409);
    expect(taken.body.context?.id).toEqual([merged.id]);
  });

  it('keeps the search projection right: the merged record is found, the old ones are not', async () => {
    const tag = suffix();
    const primary = await company({ name: `Searchable ${tag}` });
    const secondary = await company({ name: `Gone ${tag}` });

    const merged = (await merge(primary, secondary)).body.id;
    const [found, gone] = [await searchByName(`Searchable ${tag}`), await searchByName(`Gone ${tag}`)];
    const listed = await api.get<{ results: CompanyJson[] }>('/crm/v3/objects/companies?limit=100');

    expect(found.body.results.map((result) => result.id)).toEqual([merged]);
    expect(gone.body.total).toBe(0);
    expect(listed.body.results.map((result) => result.id)).toEqual(expect.not.arrayContaining([primary, secondary]));
  });

  it('can merge a merged record again; every old id then reads the newest result', async () => {
    const [a, b, c] = [await company({ name: 'A' }), await company({ name: 'B' }), await company({ name: 'C' })];
    const first = (await merge(a, b)).body.id;

    const second = await merge(c, first);

    expect(second.status).toBe(200);
    expect(second.body.properties.hs_merged_object_ids?.split(';').sort()).toEqual([a, b, c, first].sort());
    for (const id of [a, b, c, first]) expect((await read(id)).body.id).toBe(second.body.id);
  });

  it('answers a repeated merge of the same two ids with the merged record, writing nothing', async () => {
    const [a, b] = [await company({ name: 'Again A' }), await company({ name: 'Again B' })];
    const first = (await merge(a, b)).body;

    dynamoCallCounter.reset();
    const again = await merge(a, b);

    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.id);
    expect(dynamoCallCounter.calls.get('TransactWriteItemsCommand')).toBeUndefined();
  });

  it("refuses a self-merge, an archived id, a missing id and another account's id, naming the field", async () => {
    const a = await company({ name: 'Refuse A' });
    const archived = await company({ name: 'Archived' });
    await api.delete(`/crm/v3/objects/companies/${archived}`);
    const foreign = await company({ name: 'Foreign' }, stranger);

    const self = await merge(a, a);
    const withArchived = await merge(a, archived);
    const missing = await merge('999999999990', a);
    const other = await merge(a, foreign);
    const malformed = await api.post('/crm/v3/objects/companies/merge', { primaryObjectId: a });

    expect([self.status, self.body.category]).toEqual([400, 'VALIDATION_ERROR']);
    expect([withArchived.status, withArchived.body.context]).toEqual([400, { objectIdToMerge: [archived] }]);
    expect([missing.status, missing.body.context]).toEqual([404, { primaryObjectId: ['999999999990'] }]);
    expect([other.status, other.body.context]).toEqual([404, { objectIdToMerge: [foreign] }]);
    expect(malformed.status).toBe(400);
    expect((await read(a)).body.id).toBe(a);
    expect((await stranger.get<CompanyJson>(`/crm/v3/objects/companies/${foreign}`)).body.id).toBe(foreign);
  });

  it("writes the merge in one transaction, then reads the two records' list memberships (none here) to carry and leave them", async () => {
    const [a, b] = [await company({ name: 'Cost A', city: 'X' }), await company({ name: 'Cost B' })];

    dynamoCallCounter.reset();
    await merge(a, b);

    // The type's DYNAMIC lists were read by the creates and are known to the process.
    expect(dynamoCallCounter.callsApartFromRetries()).toEqual({
      GetItemCommand: 2,
      TransactWriteItemsCommand: 1,
      QueryCommand: 2,
    });
  });
});

describe('a merge whose transaction fails', () => {
  it('leaves both records, their domains, associations and search entries as they were', async () => {
    const tag = suffix();
    const primary = await company({ name: `Fault P ${tag}`, domain: `fault-p-${tag}.example` });
    const secondary = await company({ name: `Fault S ${tag}`, domain: `fault-s-${tag}.example` });
    const contact = await createRecord(api, 'contacts');
    expect(
      (
        await api.put(`/crm/v4/objects/companies/${secondary}/associations/contacts/${contact}`, [
          { associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 280 },
        ])
      ).status,
    ).toBe(201);
    const before = [
      await read(primary, 'properties=name,domain&associations=contacts'),
      await read(secondary, 'properties=name,domain&associations=contacts'),
    ];
    const name = 'faultInjectionFailMerge';
    // The real client, the real table: the transaction is refused as DynamoDB refuses one under an outage.
    db.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'TransactWriteItemsCommand')
          throw Object.assign(new Error('injected: service unavailable'), {
            name: 'InternalServerError',
            $fault: 'server',
            $metadata: { httpStatusCode: 500 },
          });
        return next(args);
      },
      { step: 'deserialize', name },
    );
    let response: Awaited<ReturnType<typeof merge>>;
    try {
      response = await merge(primary, secondary);
    } finally {
      db.middlewareStack.remove(name);
    }

    expect(response.status).toBeGreaterThanOrEqual(500);
    expect(response.body).toMatchObject({ status: 'error', correlationId: expect.any(String) });
    const after = [
      await read(primary, 'properties=name,domain&associations=contacts'),
      await read(secondary, 'properties=name,domain&associations=contacts'),
    ];
    expect(after.map((entry) => entry.body)).toEqual(before.map((entry) => entry.body));
    expect((await searchByName(`Fault S ${tag}`)).body.results.map((result) => result.id)).toEqual([secondary]);
    expect(
      (await api.get<CompanyJson>(`/crm/v3/objects/companies/fault-s-${tag}.example?idProperty=domain`)).body.id,
    ).toBe(secondary);
    const ofContact = await api.get<{ results: { toObjectId: number }[] }>(
      `/crm/v4/objects/contacts/${contact}/associations/companies`,
    );
    expect(ofContact.body.results.map((result) => String(result.toObjectId))).toEqual([secondary]);

    const retried = await merge(primary, secondary);
    expect(retried.status).toBe(200);
  });
});

describe('ids merged away, over many merges', () => {
  /** What one read of a merged-away id costs: the miss, its pointer, the record it points at. */
  const oneHop = { GetItemCommand: 1, BatchGetItemCommand: 2 };
  const batchRead = (ids: readonly string[]) =>
    api.post<{ results: CompanyJson[]; errors?: unknown[] }>('/crm/v3/objects/companies/batch/read', {
      inputs: ids.map((id) => ({ id })),
      properties: ['name'],
    });

  /** Merge pointers written straight to the table, as a merge leaves them. */
  async function putPointer(from: string, to: string): Promise<void> {
    await db.send(
      new PutCommand({
        TableName: tableName,
        Item: { ...mergedRecordKey(companyKeys, hubId, from), companyId: from, mergedInto: to },
      }),
    );
  }

  /** A record as if these ids had been merged into it before (its hs_merged_object_ids and their pointers). */
  async function holdMergedIds(id: string, mergedIds: readonly string[]): Promise<void> {
    await db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: recordKey(companyKeys, hubId, id),
        UpdateExpression: 'SET #properties.#merged = :ids',
        ExpressionAttributeNames: { '#properties': 'properties', '#merged': 'hs_merged_object_ids' },
        ExpressionAttributeValues: { ':ids': mergedIds.join(';') },
      }),
    );
    for (const mergedId of mergedIds) await putPointer(mergedId, id);
  }

  it('reads every old id of 10 successive merges as the newest record, each through one pointer', async () => {
    let newest = await company({ name: 'Chain 0' });
    const oldIds: string[] = [];
    for (let step = 1; step <= 10; step += 1) {
      const added = await company({ name: `Chain ${step}` });
      const merged = await merge(newest, added);
      expect(merged.status).toBe(200);
      oldIds.push(newest, added);
      newest = merged.body.id;
    }

    const answers: { id: string; status: number; readId: string; calls: Record<string, number> }[] = [];
    for (const id of oldIds) {
      dynamoCallCounter.reset();
      const response = await read(id);
      answers.push({
        id,
        status: response.status,
        readId: response.body.id,
        calls: dynamoCallCounter.callsApartFromRetries(),
      });
    }
    dynamoCallCounter.reset();
    const batch = await batchRead(oldIds);

    expect(answers).toEqual(oldIds.map((id) => ({ id, status: 200, readId: newest, calls: oneHop })));
    expect(batch.body.results.map((result) => result.id)).toEqual([newest]);
    // The records (all missing), then the pointers of the 20 ids and the one record they name.
    expect(dynamoCallCounter.callsApartFromRetries()).toEqual({ BatchGetItemCommand: 3 });
  });

  it('follows a longer chain to its end, as a merge whose pointer rewrite was cut short leaves one', async () => {
    const holder = await company({ name: 'End of chain' });
    const chain = Array.from({ length: 12 }, () => newRecordId());
    for (const [index, id] of chain.entries()) await putPointer(id, chain[index + 1] ?? holder);

    const response = await read(chain[0] ?? '');

    expect([response.status, response.body.id]).toEqual([200, holder]);
  });

  // The read the GET route's function runs, called in-process: following a cycle to the bound is
  // 1 + 2 x 249 calls one after the other, on a loaded machine more than the gateway's 10 s function time.
  it('answers 404 for a pointer cycle (no merge makes one) after a bounded number of calls', async () => {
    const [first, second] = [newRecordId(), newRecordId()];
    await putPointer(first, second);
    await putPointer(second, first);

    dynamoCallCounter.reset();
    const reading = getRecord(companyObjectType, hubId, first, {});

    await expect(reading).rejects.toMatchObject({ status: 404, category: 'OBJECT_NOT_FOUND' });
    expect(dynamoCallCounter.totalApartFromRetries()).toBe(1 + 2 * maxMergeHops);
  });

  it(`points ids merged before at the new record after the transaction when they do not fit in it, up to ${maxRecordIdentities} ids`, async () => {
    const primary = await company({ name: 'Many merges' });
    const earlier = Array.from({ length: maxRecordIdentities - 3 }, () => newRecordId());
    await holdMergedIds(primary, earlier);
    const secondary = await company({ name: 'One more' });

    dynamoCallCounter.reset();
    const merged = await merge(primary, secondary);
    const calls = dynamoCallCounter.callsApartFromRetries();

    expect(merged.status).toBe(200);
    expect(merged.body.properties.hs_merged_object_ids?.split(';')).toHaveLength(maxRecordIdentities - 1);
    expect(calls).toEqual({
      GetItemCommand: 2,
      TransactWriteItemsCommand: 1,
      QueryCommand: 2,
      BatchWriteItemCommand: Math.ceil(earlier.length / 25),
    });
    for (const id of [earlier[0] ?? '', earlier.at(-1) ?? '', primary, secondary]) {
      dynamoCallCounter.reset();
      expect([id, (await read(id)).body.id, dynamoCallCounter.callsApartFromRetries()]).toEqual([
        id,
        merged.body.id,
        oneHop,
      ]);
    }
  });

  it(`refuses a merge past ${maxRecordIdentities} ids on one record with 414, as HubSpot does, writing nothing`, async () => {
    const full = await company({ name: 'Full' });
    await holdMergedIds(
      full,
      Array.from({ length: maxRecordIdentities - 1 }, () => newRecordId()),
    );
    const other = await company({ name: 'No room' });

    dynamoCallCounter.reset();
    const refused = await merge(full, other);

    expect(refused.status).toBe(414);
    expect(refused.body).toMatchObject({
      status: 'error',
      category: 'VALIDATION_ERROR',
      message: `Cannot have more than ${maxRecordIdentities} identities on a profile`,
      context: { primaryObjectId: [full], objectIdToMerge: [other] },
    });
    expect(dynamoCallCounter.calls.get('TransactWriteItemsCommand')).toBeUndefined();
    expect([(await read(full)).body.id, (await read(other)).body.id]).toEqual([full, other]);
  });
});
