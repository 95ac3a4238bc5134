import { createRecords, crmClient, type CrmClient } from '../../support/crm-client';
import { install, unique, useTestGateway } from '../../support/harness';
import { tokenCall, useSandboxDeveloper } from '../../support/sandbox-control';

/**
 * Lists over HTTP on both spellings (`/crm/v3/lists` and `/crm/lists/2026-03`): paging members to the
 * end, the bounds of each call, deletes and restores, the record view and a test account's reset.
 */
const gateway = useTestGateway();
const sandbox = useSandboxDeveloper(gateway);
let api: CrmClient;

beforeAll(async () => {
  api = crmClient(gateway, (await install(gateway)).accessToken);
});

interface ListJson {
  list: { listId: string; name: string; size: number; listVersion: number };
}
interface PageJson {
  results: { recordId: string; membershipTimestamp: string }[];
  paging?: { next?: { after: string }; prev?: { before: string } };
  total: number;
}

const prefixes = [
  ['v3', '/crm/v3/lists'],
  ['2026-03', '/crm/lists/2026-03'],
] as const;

async function newList(prefix: string, name = unique('List')): Promise<string> {
  const created = await api.post<ListJson>(prefix, { name, objectTypeId: '0-2', processingType: 'MANUAL' });
  expect(created.status).toBe(200);
  return created.body.list.listId;
}

/** Every page of a list's members by one order and direction, to the end (bounded by the member count). */
async function walk(path: string, direction: 'after' | 'before', start: string | undefined, most: number) {
  const seen: string[] = [];
  let cursor = start;
  for (let page = 0; page <= most; page += 1) {
    const query = cursor === undefined ? 'limit=7' : `limit=7&${direction}=${encodeURIComponent(cursor)}`;
    const answer = await api.get<PageJson>(`${path}?${query}`);
    expect(answer.status).toBe(200);
    seen.push(...answer.body.results.map((member) => member.recordId));
    cursor = direction === 'after' ? answer.body.paging?.next?.after : answer.body.paging?.prev?.before;
    if (cursor === undefined) return seen;
  }
  throw new Error(`no end after ${most} pages`);
}

describe.each(prefixes)('lists on %s', (_version, prefix) => {
  it('pages the members to the end by record id (after, ascending; before, descending) and by join order, each once', async () => {
    const listId = await newList(prefix);
    const ids = await createRecords(api, 'companies', 30);
    expect((await api.put(`${prefix}/${listId}/memberships/add`, ids.slice(0, 15))).status).toBe(200);
    expect((await api.put(`${prefix}/${listId}/memberships/add`, ids.slice(15))).status).toBe(200);
    const sorted = [...ids].sort();

    const ascending = await walk(`${prefix}/${listId}/memberships`, 'after', undefined, 30);
    const descending = await walk(`${prefix}/${listId}/memberships`, 'before', '9'.repeat(30), 30);
    const joined = await walk(`${prefix}/${listId}/memberships/join-order`, 'after', undefined, 30);
    const first = await api.get<PageJson>(`${prefix}/${listId}/memberships`);

    expect(ascending).toEqual(sorted);
    expect(descending).toEqual([...sorted].reverse());
    expect([...joined.slice(0, 15)].sort()).toEqual([...ids.slice(0, 15)].sort());
    expect([...joined].sort()).toEqual(sorted);
    expect(first.body).toMatchObject({ total: 30 });
    expect(first.body.results).toHaveLength(30);
    expect(first.body.paging).toBeUndefined();
  });

  it('answers 400 naming the field past each bound, and writes nothing', async () => {
    const listId = await newList(prefix);
    const [id] = await createRecords(api, 'companies', 1);
    const tooMany = Array.from({ length: 10_000 }, (_, index) => String(2_000_000_000_000_000 + index));

    const add = await api.put(`${prefix}/${listId}/memberships/add`, [id, ...tooMany]);
    const both = await api.put(`${prefix}/${listId}/memberships/add-and-remove`, {
      recordIdsToAdd: [id],
      recordIdsToRemove: [id],
    });
    const limit = await api.get(`${prefix}/${listId}/memberships?limit=251`);
    const cursor = await api.get(`${prefix}/${listId}/memberships?after=abc`);
    const count = await api.post(`${prefix}/search`, { count: 501 });
    const unknownType = await api.post(prefix, {
      name: unique('Typed'),
      objectTypeId: '2-999999',
      processingType: 'MANUAL',
    });
    const filters = await api.post(prefix, {
      name: unique('Filtered'),
      objectTypeId: '0-2',
      processingType: 'MANUAL',
      filterBranch: { filterBranchType: 'OR', filterBranches: [] },
    });
    const blank = await api.put(`${prefix}/${listId}/update-list-name?listName=%20`);
    const after = await api.get<ListJson>(`${prefix}/${listId}`);

    expect(add.status).toBe(400);
    expect(JSON.stringify(add.body)).toContain('10000');
    expect(both).toMatchObject({ status: 400, body: { context: { recordIdsToAdd: [id] } } });
    expect(limit).toMatchObject({ status: 400, body: { category: 'VALIDATION_ERROR' } });
    expect(JSON.stringify(limit.body)).toContain('limit');
    expect(cursor).toMatchObject({ status: 400, body: { context: { after: ['abc'] } } });
    expect(count.status).toBe(400);
    expect(JSON.stringify(count.body)).toContain('count');
    expect(unknownType).toMatchObject({ status: 400, body: { context: { objectTypeId: ['2-999999'] } } });
    expect(filters).toMatchObject({ status: 400, body: { context: { filterBranch: ['MANUAL'] } } });
    expect(blank).toMatchObject({ status: 400, body: { context: { listName: [' '] } } });
    expect(after.body.list).toMatchObject({ size: 0, listVersion: 1 });
  });

  it('deletes a list (204): its reads and memberships answer 404, its name is free, and a restore (204) brings it back unless the name was taken (409)', async () => {
    const name = unique('Deleted');
    const listId = await newList(prefix, name);
    const [id] = await createRecords(api, 'companies', 1);
    await api.put(`${prefix}/${listId}/memberships/add`, [id]);

    const deleted = await api.delete(`${prefix}/${listId}`);
    const read = await api.get(`${prefix}/${listId}`);
    const members = await api.get(`${prefix}/${listId}/memberships`);
    const add = await api.put(`${prefix}/${listId}/memberships/add`, [id]);
    const ofRecord = await api.get<{ results: unknown[] }>(`${prefix}/records/0-2/${id}/memberships`);
    const again = await api.delete(`${prefix}/${listId}`);
    const taker = await newList(prefix, name.toUpperCase());
    const blocked = await api.put(`${prefix}/${listId}/restore`);
    await api.delete(`${prefix}/${taker}`);
    const restored = await api.put(`${prefix}/${listId}/restore`);
    const back = await api.get<ListJson>(`${prefix}/${listId}`);
    const twice = await api.put(`${prefix}/${listId}/restore`);

    expect([deleted.status, read.status, members.status, add.status, again.status]).toEqual([204, 404, 404, 404, 404]);
    expect(read.body).toMatchObject({ category: 'OBJECT_NOT_FOUND', context: { listId: [listId] } });
    expect(ofRecord.body.results).toEqual([]);
    expect(blocked).toMatchObject({ status: 409, body: { category: 'CONFLICT' } });
    expect([restored.status, back.status, twice.status]).toEqual([204, 200, 404]);
    expect(back.body.list).toMatchObject({ name, size: 1 });
  });

  it('finds a list by name ignoring case within its object type only, and several by id', async () => {
    const name = unique('Named');
    const listId = await newList(prefix, name);

    const found = await api.get<ListJson>(
      `${prefix}/object-type-id/0-2/name/${encodeURIComponent(name.toLowerCase())}`,
    );
    const otherType = await api.get(`${prefix}/object-type-id/0-1/name/${encodeURIComponent(name)}`);
    const several = await api.get<{ lists: { listId: string }[] }>(`${prefix}?listIds=${listId}&listIds=999999999`);

    expect(found.body.list.listId).toBe(listId);
    expect(otherType).toMatchObject({ status: 404, body: { context: { listName: [name] } } });
    expect(several.body.lists.map((list) => list.listId)).toEqual([listId]);
  });

  it("counts ids of another type's records as missing, and refuses add-from a list of another type or itself (400)", async () => {
    const contactList = await api.post<ListJson>(prefix, {
      name: unique('Contacts'),
      objectTypeId: '0-1',
      processingType: 'MANUAL',
    });
    const companyList = await newList(prefix);
    const [company] = await createRecords(api, 'companies', 1);
    const contactListId = contactList.body.list.listId;

    const added = await api.put(`${prefix}/${contactListId}/memberships/add`, [company]);
    const otherType = await api.put(`${prefix}/${contactListId}/memberships/add-from/${companyList}`);
    const itself = await api.put(`${prefix}/${companyList}/memberships/add-from/${companyList}`);
    const missingSource = await api.put(`${prefix}/${companyList}/memberships/add-from/999999999`);

    expect(added.body).toEqual({ recordsIdsAdded: [], recordIdsRemoved: [], recordIdsMissing: [company] });
    expect(otherType).toMatchObject({ status: 400, body: { context: { sourceListId: [companyList] } } });
    expect(itself).toMatchObject({ status: 400, body: { context: { sourceListId: [companyList] } } });
    expect(missingSource).toMatchObject({ status: 404, body: { context: { listId: ['999999999'] } } });
  });

  it('reads the memberships of several records (200) and of one', async () => {
    const listId = await newList(prefix);
    const [member, other] = await createRecords(api, 'companies', 2);
    await api.put(`${prefix}/${listId}/memberships/add`, [member]);

    const batch = await api.post<{
      status: string;
      results: { recordId: string; recordListMemberships: { listId: string }[] }[];
    }>(`${prefix}/records/memberships/batch/read`, {
      inputs: [
        { objectTypeId: '0-2', recordId: member },
        { objectTypeId: '0-2', recordId: other },
      ],
    });
    const one = await api.get<{ results: { listId: string; listVersion: number; firstAddedTimestamp: string }[] }>(
      `${prefix}/records/0-2/${member}/memberships`,
    );

    expect(batch.status).toBe(200);
    expect(batch.body.status).toBe('COMPLETE');
    expect(
      batch.body.results.map((result) => [result.recordId, result.recordListMemberships.map((m) => m.listId)]),
    ).toEqual([
      [member, [listId]],
      [other, []],
    ]);
    expect(one.body.results).toEqual([
      expect.objectContaining({ listId, listVersion: 1, firstAddedTimestamp: expect.any(String) }),
    ]);
  });

  it('answers 207 with an error per input whose objectTypeId names no type of the account, the others answered', async () => {
    const listId = await newList(prefix);
    const [member] = await createRecords(api, 'companies', 1);
    await api.put(`${prefix}/${listId}/memberships/add`, [member]);

    const batch = await api.post<{
      results: { recordId: string; recordListMemberships: { listId: string }[] }[];
      numErrors: number;
      errors: { status: string; category: string; context: Record<string, string[]> }[];
    }>(`${prefix}/records/memberships/batch/read`, {
      inputs: [
        { objectTypeId: '2-999999', recordId: '1' },
        { objectTypeId: '0-2', recordId: member },
      ],
    });

    expect(batch.status).toBe(207);
    expect(
      batch.body.results.map((result) => [result.recordId, result.recordListMemberships.map((m) => m.listId)]),
    ).toEqual([[member, [listId]]]);
    expect(batch.body.numErrors).toBe(1);
    expect(batch.body.errors).toEqual([
      expect.objectContaining({
        status: 'error',
        category: 'VALIDATION_ERROR',
        context: { objectTypeId: ['2-999999'] },
      }),
    ]);
  });
});

describe('lists of a test account', () => {
  it('are removed by a reset, memberships and all', async () => {
    const hubId = await sandbox.newTestAccount();
    const answer = await sandbox.control<{ access_token: string }>('POST', `/test-accounts/${hubId}/installs`, {
      appId: sandbox.developer.appId,
      scopes: sandbox.developer.scopes,
    });
    const token = answer.body.access_token;
    const created = await tokenCall<ListJson>(gateway, token, 'POST', '/crm/v3/lists', {
      name: 'Reset list',
      objectTypeId: '0-2',
      processingType: 'MANUAL',
    });
    const company = await tokenCall<{ id: string }>(gateway, token, 'POST', '/crm/v3/objects/companies', {
      properties: { name: 'Reset company' },
    });
    const listId = created.body.list.listId;
    await tokenCall(gateway, token, 'PUT', `/crm/v3/lists/${listId}/memberships/add`, [company.body.id]);

    expect((await sandbox.control('POST', `/test-accounts/${hubId}/reset`)).status).toBe(204);
    const read = await tokenCall(gateway, token, 'GET', `/crm/v3/lists/${listId}`);
    const search = await tokenCall<{ total: number }>(gateway, token, 'POST', '/crm/v3/lists/search', {});
    const again = await tokenCall(gateway, token, 'POST', '/crm/v3/lists', {
      name: 'Reset list',
      objectTypeId: '0-2',
      processingType: 'MANUAL',
    });

    expect(read.status).toBe(404);
    expect(search.body.total).toBe(0);
    expect(again.status).toBe(200);
  });
});
