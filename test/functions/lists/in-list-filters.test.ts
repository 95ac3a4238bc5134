import { crmClient, type CrmClient } from '../../support/crm-client';
import { install, unique, useTestGateway, type ErrorJson } from '../../support/harness';
import {
  branchOf,
  completed,
  createList,
  inListFilter,
  listsPath,
  members,
  newContact,
  stringFilter,
  type ListJson,
} from '../../support/list-api';

/**
 * IN_LIST and NOT_IN_LIST filters over HTTP: a DYNAMIC list of the records in (or not in) another
 * list of their type is right at once after a record write and after a membership change of the
 * list it names; its evaluation waits for a named list that is PROCESSING; a refilter of a named
 * list evaluates the lists that name it again; and the 400s of what such a filter may name.
 */
const gateway = useTestGateway();
let api: CrmClient;

beforeAll(async () => {
  api = crmClient(gateway, (await install(gateway)).accessToken);
});

const contacts = '/crm/v3/objects/contacts';
const sorted = (ids: string[]) => [...ids].sort();

async function change(listId: string, add: string[], remove: string[] = []): Promise<void> {
  const answer = await api.put(`${listsPath}/${listId}/memberships/add-and-remove`, {
    recordIdsToAdd: add,
    recordIdsToRemove: remove,
  });
  expect(answer.status).toBe(200);
}

async function rename(id: string, firstname: string): Promise<void> {
  expect((await api.patch(`${contacts}/${id}`, { properties: { firstname } })).status).toBe(200);
}

async function refused(body: unknown, path = listsPath, method: 'post' | 'put' = 'post'): Promise<ErrorJson> {
  const answer = await api[method]<ErrorJson>(path, body);
  expect(answer.status).toBe(400);
  expect(answer.body).toMatchObject({ status: 'error', category: 'VALIDATION_ERROR' });
  expect(answer.body.correlationId).toEqual(expect.any(String));
  return answer.body;
}

describe('IN_LIST filters of a MANUAL list', () => {
  it('follow the named list: its adds and removes, and the record writes, change the memberships at once', async () => {
    const tag = unique('in');
    const [a, b, c] = [
      await newContact(api, { firstname: tag }),
      await newContact(api, { firstname: tag }),
      await newContact(api, { firstname: 'other' }),
    ];
    const manual = await createList(api, 'MANUAL');
    await change(manual.listId, [a as string]);
    const inside = await createList(
      api,
      'DYNAMIC',
      branchOf(stringFilter('firstname', tag), inListFilter(manual.listId)),
    );
    const outside = await createList(
      api,
      'DYNAMIC',
      branchOf(stringFilter('firstname', tag), inListFilter(manual.listId, 'NOT_IN_LIST')),
    );
    expect(inside.filterBranch).toMatchObject({
      filterBranches: [{ filters: [{}, { filterType: 'IN_LIST', listId: manual.listId, operator: 'IN_LIST' }] }],
    });
    // The evaluation over existing records reads the named list's members.
    expect((await completed(api, inside.listId)).size).toBe(1);
    await completed(api, outside.listId);
    expect(await members(api, inside.listId)).toEqual([a]);
    expect(await members(api, outside.listId)).toEqual([b]);

    await change(manual.listId, [b as string, c as string], [a as string]);
    expect(await members(api, inside.listId)).toEqual([b]);
    expect(await members(api, outside.listId)).toEqual([a]);

    await rename(c as string, tag);
    expect(await members(api, inside.listId)).toEqual(sorted([b as string, c as string]));
    await rename(b as string, 'gone');
    expect(await members(api, inside.listId)).toEqual([c]);
    expect(await members(api, outside.listId)).toEqual([a]);

    expect((await api.delete(`${listsPath}/${manual.listId}/memberships`)).status).toBe(204);
    expect(await members(api, inside.listId)).toEqual([]);
    expect(await members(api, outside.listId)).toEqual(sorted([a as string, c as string]));

    const source = await createList(api, 'MANUAL');
    await change(source.listId, [a as string, b as string]);
    expect((await api.put(`${listsPath}/${manual.listId}/memberships/add-from/${source.listId}`)).status).toBe(204);
    expect(await members(api, inside.listId)).toEqual([a]);
    expect(await members(api, outside.listId)).toEqual([c]);
    const read = await api.get<{ list: ListJson }>(`${listsPath}/${inside.listId}`);
    expect(read.body.list.size).toBe(1);
  });

  it('counts the lists that name a list, and refuses to delete it until none does', async () => {
    const manual = await createList(api, 'MANUAL');
    const naming = await createList(api, 'DYNAMIC', branchOf(inListFilter(manual.listId)));
    const search = await api.post<{ lists: { listId: string; additionalProperties: Record<string, string> }[] }>(
      `${listsPath}/search`,
      { listIds: [manual.listId] },
    );
    expect(search.body.lists[0]?.additionalProperties.hs_list_reference_count).toBe('1');
    const deleted = await api.delete<ErrorJson>(`${listsPath}/${manual.listId}`);
    expect(deleted.status).toBe(400);
    expect(deleted.body.message).toContain(naming.listId);
    expect(deleted.body.context).toEqual({ listId: [manual.listId] });

    expect((await api.delete(`${listsPath}/${naming.listId}`)).status).toBe(204);
    const after = await api.post<{ lists: { additionalProperties: Record<string, string> }[] }>(`${listsPath}/search`, {
      listIds: [manual.listId],
    });
    expect(after.body.lists[0]?.additionalProperties.hs_list_reference_count).toBe('0');
    expect((await api.delete(`${listsPath}/${manual.listId}`)).status).toBe(204);
    // The list it named is deleted: it comes back only after that one.
    const restore = await api.put<ErrorJson>(`${listsPath}/${naming.listId}/restore`);
    expect(restore.status).toBe(400);
    expect(restore.body.context).toEqual({ listId: [manual.listId] });
    expect((await api.put(`${listsPath}/${manual.listId}/restore`)).status).toBe(204);
    expect((await api.put(`${listsPath}/${naming.listId}/restore`)).status).toBe(204);
    await completed(api, naming.listId);
  });
});

describe('IN_LIST filters of a DYNAMIC list', () => {
  it('see the membership the same write gives the named list, and wait for its evaluation', async () => {
    const tag = unique('chain');
    const early = await newContact(api, { firstname: tag, lastname: 'Lovelace' });
    const named = await createList(api, 'DYNAMIC', branchOf(stringFilter('firstname', tag)));
    // Made while the named list may still be PROCESSING: its evaluation waits for it.
    const chained = await createList(
      api,
      'DYNAMIC',
      branchOf(stringFilter('lastname', 'Lovelace'), inListFilter(named.listId)),
    );
    await completed(api, named.listId);
    await completed(api, chained.listId);
    expect(await members(api, chained.listId)).toEqual([early]);

    const later = await newContact(api, { firstname: tag, lastname: 'Lovelace' });
    expect(await members(api, chained.listId)).toEqual(sorted([early, later]));
    await rename(early, 'other');
    expect(await members(api, named.listId)).toEqual([later]);
    expect(await members(api, chained.listId)).toEqual([later]);

    // A refilter of the named list evaluates the lists that name it again.
    const refilter = await api.put<{ updatedList: ListJson }>(`${listsPath}/${named.listId}/update-list-filters`, {
      filterBranch: branchOf(stringFilter('firstname', 'other')),
    });
    expect(refilter.status).toBe(200);
    const again = await api.get<{ list: ListJson }>(`${listsPath}/${chained.listId}`);
    expect(again.body.list.processingStatus).toBe('PROCESSING');
    await completed(api, named.listId);
    await completed(api, chained.listId);
    expect(await members(api, chained.listId)).toEqual([early]);
  });

  it('refuse a filter that would make lists name each other in a cycle', async () => {
    const first = await createList(api, 'DYNAMIC', branchOf(stringFilter('firstname', unique('x'))));
    const second = await createList(api, 'DYNAMIC', branchOf(inListFilter(first.listId)));
    const third = await createList(api, 'DYNAMIC', branchOf(inListFilter(second.listId)));
    const body = await refused(
      { filterBranch: branchOf(inListFilter(third.listId)) },
      `${listsPath}/${first.listId}/update-list-filters`,
      'put',
    );
    expect(body.message).toContain('cycle');
    expect(body.context).toEqual({ filterBranch: ['filterBranches[0].filters[0].listId'] });
    const self = await refused(
      { filterBranch: branchOf(inListFilter(first.listId)) },
      `${listsPath}/${first.listId}/update-list-filters`,
      'put',
    );
    expect(self.context).toEqual({ filterBranch: ['filterBranches[0].filters[0].listId'] });
  });
});

describe('the 400s of an IN_LIST filter', () => {
  const dynamic = (filterBranch: unknown) => ({
    name: unique('Bad'),
    objectTypeId: '0-1',
    processingType: 'DYNAMIC',
    filterBranch,
  });

  it('names the filter of a list that does not exist, of another type, with metadata or a bad operator', async () => {
    const missing = await refused(dynamic(branchOf(inListFilter('999999999'))));
    expect(missing.context).toEqual({ filterBranch: ['filterBranches[0].filters[0].listId'] });
    const companies = await createList(api, 'MANUAL', undefined, '0-2');
    const otherType = await refused(dynamic(branchOf(stringFilter('firstname', 'a'), inListFilter(companies.listId))));
    expect(otherType.context).toEqual({ filterBranch: ['filterBranches[0].filters[1].listId'] });
    expect(otherType.message).toContain('0-2');
    const withMetadata = await refused(
      dynamic(branchOf({ ...inListFilter(companies.listId), metadata: { id: '1', inListType: 'WORKFLOWS_ACTIVE' } })),
    );
    expect(withMetadata.context).toEqual({ filterBranch: ['filterBranches[0].filters[0].metadata'] });
    const operator = await refused(dynamic(branchOf({ ...inListFilter(companies.listId), operator: 'IS_IN' })));
    expect(operator.context).toEqual({ filterBranch: ['filterBranches[0].filters[0].operator'] });
    const noId = await refused(dynamic(branchOf({ filterType: 'IN_LIST', operator: 'IN_LIST' })));
    expect(noId.context).toEqual({ filterBranch: ['filterBranches[0].filters[0].listId'] });
  });
});
