import { NotFoundError, ValidationError } from '../base/errors';
import {
  activeListsPage,
  countActiveLists,
  findList,
  findListIdByName,
  findLists,
  listAccountLists,
  type StoredList,
} from '../db/lists';
import { readFolderTree } from '../db/list-folders';
import { listLimits } from './list-limits';
import { requireActiveList } from './manage-lists';
import {
  countedLists,
  defaultSearchProperties,
  listNameDigest,
  searchResultOf,
  withCounters,
  type ListViewOptions,
  type PublicList,
} from './list-view';

export async function getList(hubId: number, listId: string, options: ListViewOptions = {}): Promise<PublicList> {
  return (await withCounters(hubId, [await requireActiveList(hubId, listId)], options))[0] as PublicList;
}

/** The lists of these ids that exist and are not deleted, in the order asked; unknown ids are left out. */
export async function getListsByIds(
  hubId: number,
  listIds: readonly string[],
  options: ListViewOptions = {},
): Promise<PublicList[]> {
  const wanted = [...new Set(listIds.filter((listId) => /^[0-9]{1,12}$/.test(listId)))];
  const found = new Map((await findLists(hubId, wanted)).map((list) => [list.listId, list]));
  return withCounters(
    hubId,
    wanted.flatMap((listId) => {
      const list = found.get(listId);
      return list && list.deletedAt === undefined ? [list] : [];
    }),
    options,
  );
}

/** The list of that type with that name, the name compared ignoring case. */
export async function getListByName(
  hubId: number,
  objectTypeId: string,
  listName: string,
  options: ListViewOptions = {},
): Promise<PublicList> {
  const listId = await findListIdByName(hubId, listNameDigest(listName));
  const list = listId === undefined ? undefined : await findList(hubId, listId);
  if (!list || list.deletedAt !== undefined || list.objectTypeId !== objectTypeId)
    throw new NotFoundError(`No list of type ${objectTypeId} is named ${listName}`, {
      context: { listName: [listName], objectTypeId: [objectTypeId] },
    });
  return (await withCounters(hubId, [list], options))[0] as PublicList;
}

export interface ListSearch {
  query?: string;
  listIds?: string[];
  processingTypes?: string[];
  objectTypeId?: string;
  additionalProperties?: string[];
  offset?: number;
  count?: number;
}

/**
 * The account's lists (not deleted) whose name contains the query (ignoring case; an empty or
 * absent query matches all) and that match the other criteria, in id order, `count` from `offset`.
 * Reads the account's list items: one Query, bounded by the cap on lists.
 */
export async function searchLists(hubId: number, search: ListSearch) {
  const count = search.count ?? listLimits.defaultSearchCount;
  if (count < 1 || count > listLimits.maxSearchCount)
    throw new ValidationError(`count is 1 to ${listLimits.maxSearchCount}`, { context: { count: [String(count)] } });
  const offset = search.offset ?? 0;
  const query = (search.query ?? '').trim().toLowerCase();
  const listIds = search.listIds && search.listIds.length > 0 ? new Set(search.listIds) : undefined;
  const types =
    search.processingTypes && search.processingTypes.length > 0 ? new Set(search.processingTypes) : undefined;
  const matches = (list: StoredList) =>
    list.deletedAt === undefined &&
    (query === '' || list.name.toLowerCase().includes(query)) &&
    (!listIds || listIds.has(list.listId)) &&
    (!types || types.has(list.processingType)) &&
    (search.objectTypeId === undefined || list.objectTypeId === search.objectTypeId);
  const all = (await listAccountLists(hubId, listLimits.maxListsPerAccount * 4)).filter(matches);
  const names = [...new Set([...defaultSearchProperties, ...(search.additionalProperties ?? [])])];
  const page = all.slice(offset, offset + count);
  // The folders' names when a hit is in a folder and its folder's name is asked for: one read of the tree.
  const folderNames =
    names.includes('hs_folder_name') && page.some((list) => list.listFolderId !== 0)
      ? new Map(
          [...(await readFolderTree(hubId)).folders.values()].map((folder) => [Number(folder.folderId), folder.name]),
        )
      : undefined;
  return {
    lists: (await countedLists(hubId, page)).map((list) => searchResultOf(list, names, folderNames)),
    offset: offset + page.length,
    hasMore: offset + page.length < all.length,
    total: all.length,
  };
}

export interface ListPageQuery {
  after?: string;
  count?: number;
  processingTypes?: string[];
  objectTypeId?: string;
  additionalProperties?: string[];
}

/**
 * 2026-09's listing of every list (POST /all): the account's lists not deleted, by id ascending,
 * `count` a page after the `after` cursor (a list id); one Query a page. `total` (the account's lists
 * not deleted, from the count the cap holds) only when no filter narrows the listing.
 */
export async function listAllLists(hubId: number, query: ListPageQuery) {
  const count = query.count ?? listLimits.defaultSearchCount;
  if (count < 1 || count > listLimits.maxSearchCount)
    throw new ValidationError(`count is 1 to ${listLimits.maxSearchCount}`, { context: { count: [String(count)] } });
  if (query.after !== undefined && !/^[0-9]{1,12}$/.test(query.after))
    throw new ValidationError('after is the paging.next.after of an earlier page', {
      context: { after: [query.after] },
    });
  const isFiltered = (query.processingTypes?.length ?? 0) > 0 || query.objectTypeId !== undefined;
  const [page, total] = await Promise.all([
    activeListsPage(hubId, { ...query, count }),
    isFiltered ? undefined : countActiveLists(hubId),
  ]);
  const names = [...new Set([...defaultSearchProperties, ...(query.additionalProperties ?? [])])];
  return {
    results: page.lists.map((list) => searchResultOf(list, names)),
    ...(page.nextAfter ? { paging: { next: { after: page.nextAfter } } } : {}),
    ...(total === undefined ? {} : { total }),
  };
}
