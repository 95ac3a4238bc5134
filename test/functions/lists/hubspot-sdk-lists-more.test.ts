import { Client } from '@hubspot/api-client';
import {
  allocateListId,
  findList,
  insertList,
  listsDeletedBefore,
  markListDeleted,
  membershipPage,
  recordMemberships,
  type StoredList,
} from '../../../shared/db/lists';
import { listNameDigest } from '../../../shared/lists/list-view';
import { createRecords, crmClient, type CrmClient } from '../../support/crm-client';
import { install, unique } from '../../support/harness';
import { sdkError, useSdkClient } from '../../support/sdk-client';

/**
 * crm.lists' legacy id translation, scheduled conversion and record memberships through the official
 * SDK (`mappingApi`, `listsApi`, `batchApi`), each also on its dated spelling through the plain client.
 */
const sdk = useSdkClient();

const manualList = (name: string, objectTypeId = '0-2') => ({ name, objectTypeId, processingType: 'MANUAL' });
const legacyIdOf = (listId: string) => String(Number(listId) - 200_000_000);

/** A DYNAMIC list of companies made through the SDK's create (its filters: every company named Acme). */
async function dynamicList(): Promise<{ listId: string }> {
  const { list } = await sdk.client.crm.lists.listsApi.create({
    name: unique('SDK dynamic'),
    objectTypeId: '0-2',
    processingType: 'DYNAMIC',
    filterBranch: {
      filterBranchType: 'OR',
      filters: [],
      filterBranches: [
        {
          filterBranchType: 'AND',
          filterBranches: [],
          filters: [
            {
              filterType: 'PROPERTY',
              property: 'name',
              operation: { operationType: 'STRING', operator: 'IS_EQUAL_TO', value: 'Acme' },
            },
          ],
        },
      ],
    },
  } as never);
  return list;
}

/** A list written straight to the table, in states the API does not make at once (deleted, say); `changes` adjusts the item. */
async function storedList(hubId: number, changes: Partial<StoredList> = {}): Promise<StoredList> {
  const at = new Date().toISOString();
  const list: StoredList = {
    listId: await allocateListId(),
    name: unique('Stored list'),
    objectTypeId: '0-2',
    processingType: 'DYNAMIC',
    processingStatus: 'COMPLETE',
    listVersion: 1,
    size: 0,
    createdAt: at,
    updatedAt: at,
    filtersUpdatedAt: at,
    createdById: '1',
    updatedById: '1',
    listFolderId: 0,
    ...changes,
  };
  expect(await insertList(hubId, list, listNameDigest(list.name), 1500)).toBe('created');
  return list;
}

const inDays = (days: number) => new Date(Date.now() + days * 24 * 3600 * 1000);

describe('crm.lists.mappingApi', () => {
  it('translates a legacy id (200) and several (200, unknown ones in missingLegacyListIds); an unknown one alone answers 404', async () => {
    const api = sdk.client.crm.lists.mappingApi;
    const { list } = await sdk.client.crm.lists.listsApi.create(manualList(unique('SDK legacy')));
    const legacyListId = legacyIdOf(list.listId);

    const one = await api.translateLegacyListIdToListIdWithHttpInfo(legacyListId);
    const several = await api.translateLegacyListIdToListIdBatchWithHttpInfo([
      legacyListId,
      '799999999',
      'x',
      legacyListId,
    ]);
    const unknown = await sdkError(api.translateLegacyListIdToListId('799999999'));
    const none = await sdkError(api.translateLegacyListIdToListId());
    const dated = await sdk.api.get(`/crm/lists/2026-03/idmapping?legacyListId=${legacyListId}`);
    const datedSeveral = await sdk.api.post('/crm/lists/2026-09/idmapping', [legacyListId]);

    expect([one.httpStatusCode, several.httpStatusCode, dated.status, datedSeveral.status]).toEqual([
      200, 200, 200, 200,
    ]);
    expect(one.data).toEqual({ legacyListId, listId: list.listId });
    expect(several.data).toEqual({
      legacyListIdsToIdsMapping: [{ legacyListId, listId: list.listId }],
      missingLegacyListIds: ['799999999', 'x'],
    });
    expect(unknown).toMatchObject({
      code: 404,
      body: { category: 'OBJECT_NOT_FOUND', context: { legacyListId: ['799999999'] } },
    });
    expect(none).toMatchObject({ code: 400, body: { context: { legacyListId: [''] } } });
    expect(dated.body).toEqual({ legacyListId, listId: list.listId });
    expect(datedSeveral.body).toEqual({
      legacyListIdsToIdsMapping: [{ legacyListId, listId: list.listId }],
      missingLegacyListIds: [],
    });
  });

  it('maps a deleted list while it can be restored, and refuses more than 10,000 ids (400)', async () => {
    const api = sdk.client.crm.lists.mappingApi;
    const { list } = await sdk.client.crm.lists.listsApi.create(manualList(unique('SDK legacy deleted')));
    await sdk.client.crm.lists.listsApi.remove(list.listId);
    const tooMany = Array.from({ length: 10_001 }, (_, index) => String(index + 1));

    const deleted = await api.translateLegacyListIdToListId(legacyIdOf(list.listId));
    const refused = await sdkError(api.translateLegacyListIdToListIdBatch(tooMany));

    expect(deleted.listId).toBe(list.listId);
    expect(refused.code).toBe(400);
  });
});

describe('crm.lists.listsApi scheduled conversion', () => {
  it('schedules (200), reads (200), changes and cancels (204) the conversion of a DYNAMIC list', async () => {
    const api = sdk.client.crm.lists.listsApi;
    const { listId } = await dynamicList();
    const date = inDays(40);
    const byDate = {
      conversionType: 'CONVERSION_DATE',
      day: date.getUTCDate(),
      month: date.getUTCMonth() + 1,
      year: date.getUTCFullYear(),
    } as const;

    const before = await api.getConversionDetailsWithHttpInfo(listId);
    const scheduled = await api.scheduleOrUpdateConversionWithHttpInfo(listId, byDate as never);
    const read = await api.getConversionDetails(listId);
    const changed = await api.scheduleOrUpdateConversion(listId, {
      conversionType: 'INACTIVITY',
      offset: 3,
      timeUnit: 'WEEK',
    } as never);
    const cancelled = await api.cancelConversionWithHttpInfo(listId);
    const after = await api.getConversionDetails(listId);
    const again = await api.cancelConversionWithHttpInfo(listId);

    expect([before.httpStatusCode, scheduled.httpStatusCode, cancelled.httpStatusCode, again.httpStatusCode]).toEqual([
      200, 200, 204, 204,
    ]);
    expect(before.data).toEqual({ listId });
    expect(scheduled.data).toEqual({ listId, requestedConversionTime: byDate });
    expect(read).toEqual({ listId, requestedConversionTime: byDate });
    expect(changed).toEqual({
      listId,
      requestedConversionTime: { conversionType: 'INACTIVITY', offset: 3, timeUnit: 'WEEK' },
    });
    expect(after).toEqual({ listId });
  });

  it('answers the same on the dated spelling, and stores when the conversion falls due', async () => {
    const { listId } = await dynamicList();
    const date = inDays(2);
    const day = { day: date.getUTCDate(), month: date.getUTCMonth() + 1, year: date.getUTCFullYear() };

    const put = await sdk.api.put(`/crm/lists/2026-09/${listId}/schedule-conversion`, {
      conversionType: 'CONVERSION_DATE',
      ...day,
    });
    const get = await sdk.api.get(`/crm/lists/2026-03/${listId}/schedule-conversion`);
    const stored = (await findList(sdk.hubId, listId))?.conversion;
    const inactivity = await sdk.api.put(`/crm/lists/2026-03/${listId}/schedule-conversion`, {
      conversionType: 'INACTIVITY',
      offset: 2,
      timeUnit: 'MONTH',
    });
    const storedInactivity = (await findList(sdk.hubId, listId))?.conversion;
    const cancelled = await sdk.api.delete(`/crm/lists/2026-03/${listId}/schedule-conversion`);

    expect([put.status, get.status, inactivity.status, cancelled.status]).toEqual([200, 200, 200, 204]);
    expect(get.body).toEqual({ listId, requestedConversionTime: { conversionType: 'CONVERSION_DATE', ...day } });
    expect(stored).toEqual({
      conversionType: 'CONVERSION_DATE',
      ...day,
      conversionAtMs: Date.UTC(day.year, day.month - 1, day.day),
    });
    expect(storedInactivity).toEqual({
      conversionType: 'INACTIVITY',
      offset: 2,
      timeUnit: 'MONTH',
      offsetMs: 2 * 30 * 24 * 3600 * 1000,
    });
    expect((await findList(sdk.hubId, listId))?.conversion).toBeUndefined();
  });

  it('answers 400 naming the field of an impossible conversion, and stores nothing', async () => {
    const api = sdk.client.crm.lists.listsApi;
    const { listId } = await dynamicList();
    const today = new Date();
    const next = inDays(30);
    const cases = [
      [{ conversionType: 'SOMEDAY' }, 'conversionType'],
      [{ conversionType: 'CONVERSION_DATE', day: 30, month: 2, year: next.getUTCFullYear() + 1 }, 'day'],
      [{ conversionType: 'CONVERSION_DATE', day: 1, month: 13, year: next.getUTCFullYear() }, 'month'],
      [
        {
          conversionType: 'CONVERSION_DATE',
          day: today.getUTCDate(),
          month: today.getUTCMonth() + 1,
          year: today.getUTCFullYear(),
        },
        'year',
      ],
      [{ conversionType: 'CONVERSION_DATE', day: 1, month: 1 }, 'year'],
      [{ conversionType: 'INACTIVITY', offset: 0, timeUnit: 'DAY' }, 'offset'],
      [{ conversionType: 'INACTIVITY', offset: 2, timeUnit: 'YEAR' }, 'timeUnit'],
    ] as const;

    // The SDK itself refuses an unknown conversionType before sending it: the plain client sends them all.
    const answers = [];
    for (const [body] of cases)
      answers.push(
        await sdk.api.put<{ context?: Record<string, string[]> }>(`/crm/v3/lists/${listId}/schedule-conversion`, body),
      );

    expect(
      answers.map((answer, index) => [
        answer.status,
        Object.keys(answer.body.context ?? {}).includes(cases[index]?.[1] ?? ''),
      ]),
    ).toEqual(cases.map(() => [400, true]));
    expect(await api.getConversionDetails(listId)).toEqual({ listId });
  });

  it('refuses to schedule or cancel the conversion of a MANUAL list (400 naming processingType); an unknown or deleted list answers 404', async () => {
    const api = sdk.client.crm.lists.listsApi;
    const { list } = await api.create(manualList(unique('SDK conversion manual')));
    const deleted = await storedList(sdk.hubId, { deletedAt: new Date().toISOString() });
    const inactivity = { conversionType: 'INACTIVITY', offset: 1, timeUnit: 'DAY' } as never;

    const read = await api.getConversionDetails(list.listId);
    const schedule = await sdkError(api.scheduleOrUpdateConversion(list.listId, inactivity));
    const cancel = await sdkError(api.cancelConversion(list.listId));
    const unknown = await sdkError(api.scheduleOrUpdateConversion('999999999', inactivity));
    const gone = await sdkError(api.getConversionDetails(deleted.listId));

    expect(read).toEqual({ listId: list.listId });
    expect(schedule).toMatchObject({ code: 400, body: { context: { processingType: ['MANUAL'] } } });
    expect(cancel).toMatchObject({ code: 400, body: { context: { processingType: ['MANUAL'] } } });
    expect([unknown.code, gone.code]).toEqual([404, 404]);
  });
});

interface AllPageJson {
  results: {
    listId: string;
    processingType: string;
    objectTypeId: string;
    additionalProperties: Record<string, string>;
  }[];
  paging?: { next?: { after: string } };
  total?: number;
}

describe('POST /crm/lists/2026-09/all (not in the SDK: plain JSON)', () => {
  it('pages every list not deleted by id ascending, count a page, with the total; filters by type and object type', async () => {
    const installed = await install(sdk.gateway);
    const api = crmClient(sdk.gateway, installed.accessToken);
    const made: string[] = [];
    for (const objectTypeId of ['0-2', '0-2', '0-1', '0-2']) {
      const created = await api.post<{ list: { listId: string } }>(
        '/crm/v3/lists',
        manualList(unique('All'), objectTypeId),
      );
      made.push(created.body.list.listId);
    }
    const dynamic = await storedList(installed.hubId);
    const deleted = await api.post<{ list: { listId: string } }>('/crm/v3/lists', manualList(unique('All deleted')));
    expect((await api.delete(`/crm/v3/lists/${deleted.body.list.listId}`)).status).toBe(204);
    made.push(dynamic.listId);

    const seen: string[] = [];
    const totals: (number | undefined)[] = [];
    let after: string | undefined;
    for (let page = 0; page < 10; page += 1) {
      const answer = await api.post<AllPageJson>('/crm/lists/2026-09/all', {
        processingTypes: [],
        additionalProperties: ['hs_processing_type'],
        count: 2,
        ...(after === undefined ? {} : { after }),
      });
      expect(answer.status).toBe(200);
      expect(answer.body.results.length).toBeLessThanOrEqual(2);
      seen.push(...answer.body.results.map((list) => list.listId));
      totals.push(answer.body.total);
      after = answer.body.paging?.next?.after;
      if (after === undefined) break;
    }
    const dynamicOnly = await api.post<AllPageJson>('/crm/lists/2026-09/all', {
      processingTypes: ['DYNAMIC'],
      additionalProperties: [],
    });
    const contactsOnly = await api.post<AllPageJson>('/crm/lists/2026-09/all', {
      processingTypes: ['MANUAL'],
      objectTypeId: '0-1',
      additionalProperties: [],
    });
    const whole = await api.post<AllPageJson>('/crm/lists/2026-09/all', {});

    expect(seen).toEqual([...made].sort());
    expect(seen).not.toContain(deleted.body.list.listId);
    expect(totals.every((total) => total === 5)).toBe(true);
    expect(dynamicOnly.body.results.map((list) => list.listId)).toEqual([dynamic.listId]);
    expect(dynamicOnly.body.total).toBeUndefined();
    expect(contactsOnly.body.results.map((list) => list.listId)).toEqual([made[2]]);
    expect(whole.body.results[0]?.additionalProperties).toMatchObject({ hs_list_size: '0' });
    expect(whole.body.results.at(-1)?.additionalProperties.hs_processing_type).toBeUndefined();
    expect(whole.body).toMatchObject({ total: 5 });
    expect(whole.body.paging).toBeUndefined();
  });

  it('exists on 2026-09 only (404 on 2026-03 and v3), and answers 400 naming a bad count or cursor', async () => {
    const march = await sdk.api.post('/crm/lists/2026-03/all', {});
    const numbered = await sdk.api.post('/crm/v3/lists/all', {});
    const count = await sdk.api.post<{ context?: Record<string, string[]> }>('/crm/lists/2026-09/all', { count: 501 });
    const cursor = await sdk.api.post<{ context?: Record<string, string[]> }>('/crm/lists/2026-09/all', {
      after: 'x',
    });

    expect([march.status, numbered.status, count.status, cursor.status]).toEqual([404, 404, 400, 400]);
    expect(cursor.body.context).toEqual({ after: ['x'] });
  });
});

describe('lists deleted more than 90 days ago', () => {
  const dayMs = 24 * 3600 * 1000;

  /** A fresh account (its own purge markers), its SDK client and plain client. */
  async function freshAccount(): Promise<{ hubId: number; client: Client; api: CrmClient }> {
    const installed = await install(sdk.gateway);
    return {
      hubId: installed.hubId,
      client: new Client({
        accessToken: installed.accessToken,
        basePath: sdk.gateway.baseUrl,
        numberOfApiCallRetries: 0,
      }),
      api: crmClient(sdk.gateway, installed.accessToken),
    };
  }

  /** A MANUAL company list with these members, then marked deleted `daysAgo` days ago. */
  async function deletedList(account: { hubId: number; api: CrmClient }, members: string[], daysAgo: number) {
    const name = unique('Gone list');
    const created = await account.api.post<{ list: { listId: string } }>('/crm/v3/lists', manualList(name));
    const { listId } = created.body.list;
    for (let start = 0; start < members.length; start += 100)
      expect(
        (await account.api.put(`/crm/v3/lists/${listId}/memberships/add`, members.slice(start, start + 100))).status,
      ).toBe(200);
    const list = await findList(account.hubId, listId);
    if (!list) throw new Error('the list was just made');
    const deletedAt = new Date(Date.now() - daysAgo * dayMs).toISOString();
    expect(await markListDeleted(account.hubId, list, listNameDigest(name), deletedAt)).toBe('deleted');
    return { listId, name };
  }

  const memberCount = async (hubId: number, listId: string) =>
    (await membershipPage(hubId, listId, { order: 'id', limit: 250 })).memberships.length;

  it('answers as a list that never existed on every read (404, left out) and on restore (404), which purges it', async () => {
    const account = await freshAccount();
    const members = await createRecords(account.api, 'companies', 3);
    const { listId, name } = await deletedList(account, members, 91);
    const lists = account.client.crm.lists.listsApi;

    const read = await sdkError(lists.getById(listId));
    const datedRead = await account.api.get(`/crm/lists/2026-03/${listId}`);
    const several = await lists.getAll([listId]);
    const search = await lists.doSearch({ query: name, additionalProperties: [], offset: 0 } as never);
    const all = await account.api.post<AllPageJson>('/crm/lists/2026-09/all', {});
    const ofRecord = await account.client.crm.lists.membershipsApi.getLists('0-2', members[0] ?? '');
    const legacy = await sdkError(
      account.client.crm.lists.mappingApi.translateLegacyListIdToListId(legacyIdOf(listId)),
    );
    const membersBeforeRestore = await memberCount(account.hubId, listId);
    const restore = await sdkError(lists.restore(listId));
    const datedRestore = await account.api.put(`/crm/lists/2026-09/${listId}/restore`);

    expect([read.code, datedRead.status, legacy.code, restore.code, datedRestore.status]).toEqual([
      404, 404, 404, 404, 404,
    ]);
    expect(several.lists).toEqual([]);
    expect(search.total).toBe(0);
    expect(all.body.results.map((list) => list.listId)).not.toContain(listId);
    expect(ofRecord.results).toEqual([]);
    expect(membersBeforeRestore).toBe(3);
    expect(await findList(account.hubId, listId)).toBeUndefined();
    expect(await memberCount(account.hubId, listId)).toBe(0);
    expect(await recordMemberships(account.hubId, '0-2', members[0] ?? '')).toEqual([]);
  });

  it('can still be restored at 89 days', async () => {
    const account = await freshAccount();
    const { listId } = await deletedList(account, [], 89);

    const restored = await account.client.crm.lists.listsApi.restoreWithHttpInfo(listId);

    expect(restored.httpStatusCode).toBe(204);
    expect((await account.client.crm.lists.listsApi.getById(listId)).list.listId).toBe(listId);
  });

  it('is purged a bounded step at each list delete of its account (100 memberships, then its item)', async () => {
    const account = await freshAccount();
    const members = await createRecords(account.api, 'companies', 101);
    const gone = await deletedList(account, members, 120);
    const lists = account.client.crm.lists.listsApi;
    const first = await lists.create(manualList(unique('Deleted now')));
    const second = await lists.create(manualList(unique('Deleted later')));

    await lists.remove(first.list.listId);
    const afterFirst = {
      item: await findList(account.hubId, gone.listId),
      members: await memberCount(account.hubId, gone.listId),
    };
    await account.api.delete(`/crm/lists/2026-03/${second.list.listId}`);
    const afterSecond = {
      item: await findList(account.hubId, gone.listId),
      members: await memberCount(account.hubId, gone.listId),
    };

    expect(afterFirst).toEqual({ item: expect.objectContaining({ listId: gone.listId }), members: 1 });
    expect(afterSecond).toEqual({ item: undefined, members: 0 });
    expect(await listsDeletedBefore(account.hubId, Date.now() - 90 * dayMs, 10)).toEqual([]);
    expect((await sdkError(lists.getById(first.list.listId))).code).toBe(404);
  });
});
