import { createRecords } from '../../support/crm-client';
import { unique } from '../../support/harness';
import { sdkError, useSdkClient } from '../../support/sdk-client';

/**
 * crm.lists through the official SDK, unchanged but for the base URL: each call checks the exact
 * status (the SDK throws on any other) and that its models parse the answer.
 */
const sdk = useSdkClient();

const manualList = (name: string, objectTypeId = '0-2') => ({ name, objectTypeId, processingType: 'MANUAL' });

describe('crm.lists.listsApi', () => {
  it('create (200), getById, getAll by ids, getByName ignoring case, updateName, doSearch, remove (204), restore (204)', async () => {
    const api = sdk.client.crm.lists.listsApi;
    const name = unique('SDK list');

    const created = await api.createWithHttpInfo(manualList(name));
    const { listId } = created.data.list;
    const read = await api.getByIdWithHttpInfo(listId);
    const several = await api.getAllWithHttpInfo([listId, '999999999']);
    const byName = await api.getByNameWithHttpInfo(name.toUpperCase(), '0-2');
    const renamed = await api.updateNameWithHttpInfo(listId, `${name} renamed`);
    const search = await api.doSearchWithHttpInfo({ query: `${name} RENAMED`, additionalProperties: [], offset: 0 });
    const removed = await api.removeWithHttpInfo(listId);
    const gone = await sdkError(api.getById(listId));
    const restored = await api.restoreWithHttpInfo(listId);
    const back = await api.getById(listId);

    expect([
      created.httpStatusCode,
      read.httpStatusCode,
      several.httpStatusCode,
      byName.httpStatusCode,
      renamed.httpStatusCode,
      search.httpStatusCode,
      removed.httpStatusCode,
      gone.code,
      restored.httpStatusCode,
    ]).toEqual([200, 200, 200, 200, 200, 200, 204, 404, 204]);
    expect(created.data.list).toMatchObject({
      name,
      objectTypeId: '0-2',
      processingType: 'MANUAL',
      processingStatus: 'COMPLETE',
      listVersion: 1,
      size: 0,
    });
    expect(created.data.list.createdAt).toBeInstanceOf(Date);
    expect(read.data.list.listId).toBe(listId);
    expect(several.data.lists.map((list) => list.listId)).toEqual([listId]);
    expect(byName.data.list.listId).toBe(listId);
    expect(renamed.data.updatedList).toMatchObject({ name: `${name} renamed`, listVersion: 2 });
    expect(search.data).toMatchObject({ total: 1, hasMore: false, offset: 1 });
    expect(search.data.lists[0]?.additionalProperties).toMatchObject({
      hs_list_size: '0',
      hs_list_reference_count: '0',
    });
    expect(gone.body).toMatchObject({ category: 'OBJECT_NOT_FOUND', context: { listId: [listId] } });
    expect(back.list.name).toBe(`${name} renamed`);
  });

  it('refuses a second list of the same name in any case (409), and a DYNAMIC or SNAPSHOT list without filters (400 naming filterBranch)', async () => {
    const api = sdk.client.crm.lists.listsApi;
    const name = unique('SDK unique');
    await api.create(manualList(name));

    const duplicate = await sdkError(api.create(manualList(name.toLowerCase(), '0-1')));
    const dynamic = await sdkError(api.create({ ...manualList(unique('SDK dynamic')), processingType: 'DYNAMIC' }));
    const snapshot = await sdkError(api.create({ ...manualList(unique('SDK snapshot')), processingType: 'SNAPSHOT' }));

    expect(duplicate).toMatchObject({
      code: 409,
      body: { category: 'CONFLICT', context: { name: [name.toLowerCase()] } },
    });
    expect(dynamic).toMatchObject({
      code: 400,
      body: { category: 'VALIDATION_ERROR', context: { filterBranch: ['missing'] } },
    });
    expect(snapshot).toMatchObject({ code: 400, body: { context: { filterBranch: ['missing'] } } });
  });

  it('creates a DYNAMIC list (PROCESSING, its filters echoed) and updates its filters', async () => {
    const api = sdk.client.crm.lists.listsApi;
    const branch = (value: string) =>
      ({
        filterBranchType: 'OR',
        filterBranches: [
          {
            filterBranchType: 'AND',
            filterBranches: [],
            filters: [
              {
                filterType: 'PROPERTY',
                property: 'name',
                operation: { operationType: 'STRING', operator: 'IS_EQUAL_TO', value },
              },
            ],
          },
        ],
        filters: [],
      }) as never;
    const { list } = await api.create({
      ...manualList(unique('SDK dynamic')),
      processingType: 'DYNAMIC',
      filterBranch: branch('Acme'),
    });
    expect(list).toMatchObject({ processingType: 'DYNAMIC', processingStatus: 'PROCESSING' });
    expect(list.filterBranch).toMatchObject({ filterBranchType: 'OR', filterBranchOperator: 'OR' });

    const { updatedList } = await api.updateListFilters(list.listId, { filterBranch: branch('Initech') });
    if (!updatedList) throw new Error('no updatedList');
    expect(updatedList.listVersion).toBe(list.listVersion + 1);
    expect(updatedList.processingStatus).toBe('PROCESSING');
    expect(JSON.stringify(updatedList.filterBranch)).toContain('Initech');
  });

  it('updateListFilters answers 400 for a MANUAL list', async () => {
    const api = sdk.client.crm.lists.listsApi;
    const { list } = await api.create(manualList(unique('SDK filters')));

    const refused = await sdkError(
      api.updateListFilters(list.listId, {
        filterBranch: { filterBranchType: 'OR', filterBranches: [], filters: [] } as never,
      }),
    );

    expect(refused).toMatchObject({
      code: 400,
      body: { category: 'VALIDATION_ERROR', context: { processingType: ['MANUAL'] } },
    });
  });
});

describe('crm.lists.membershipsApi', () => {
  it('add (200) answers added and missing ids; getPage, getPageOrderedByAddedToListDate, addAndRemove, getLists, addAllFromList (204), removeAll (204)', async () => {
    const lists = sdk.client.crm.lists.listsApi;
    const api = sdk.client.crm.lists.membershipsApi;
    const ids = await createRecords(sdk.api, 'companies', 3);
    const [first, second, third] = ids as [string, string, string];
    const { list } = await lists.create(manualList(unique('SDK members')));
    const source = await lists.create(manualList(unique('SDK source')));

    const added = await api.addWithHttpInfo(list.listId, [first, second, '1000000000000999', 'not-an-id']);
    const again = await api.add(list.listId, [first]);
    const page = await api.getPageWithHttpInfo(list.listId);
    const joined = await api.getPageOrderedByAddedToListDateWithHttpInfo(list.listId);
    const changed = await api.addAndRemoveWithHttpInfo(list.listId, {
      recordIdsToAdd: [third],
      recordIdsToRemove: [first, '1000000000000998'],
    });
    const ofRecord = await api.getListsWithHttpInfo('0-2', third);
    await api.add(source.list.listId, [first]);
    const copied = await api.addAllFromListWithHttpInfo(list.listId, source.list.listId);
    const afterCopy = await api.getPage(list.listId);
    const cleared = await api.removeAllWithHttpInfo(list.listId);
    const afterClear = await lists.getById(list.listId);

    expect([
      added.httpStatusCode,
      page.httpStatusCode,
      joined.httpStatusCode,
      changed.httpStatusCode,
      ofRecord.httpStatusCode,
      copied.httpStatusCode,
      cleared.httpStatusCode,
    ]).toEqual([200, 200, 200, 200, 200, 204, 204]);
    expect(added.data).toEqual({
      recordsIdsAdded: [first, second],
      recordIdsRemoved: [],
      recordIdsMissing: ['not-an-id', '1000000000000999'],
    });
    expect(again).toEqual({ recordsIdsAdded: [], recordIdsRemoved: [], recordIdsMissing: [] });
    expect(page.data.results.map((member) => member.recordId)).toEqual([first, second]);
    expect(page.data.total).toBe(2);
    expect(page.data.results[0]?.membershipTimestamp).toBeInstanceOf(Date);
    expect(joined.data.results.map((member) => member.recordId).sort()).toEqual([first, second]);
    expect(changed.data).toEqual({
      recordsIdsAdded: [third],
      recordIdsRemoved: [first],
      recordIdsMissing: ['1000000000000998'],
    });
    expect(ofRecord.data.results.map((membership) => membership.listId)).toEqual([list.listId]);
    expect(afterCopy.results.map((member) => member.recordId)).toEqual([first, second, third]);
    expect(afterClear.list.size).toBe(0);
  });
});
