import { tableName } from './client';
import {
  batchDeleteAll,
  batchGetAll,
  getItem,
  queryPage,
  skBetween,
  transact,
  transactAll,
  type Item,
  type RoleWrite,
  maxTransactionItems,
  type TransactItem,
} from './core';
import { listSizeShards } from './dynamic-lists';
import { withoutKeys } from './item';
import type { StoredListConversion } from './list-conversions';
import { countChange, nextSequenceValue } from './counters';
import {
  deletedListKey,
  deletedListPrefix,
  hubCounterKey,
  hubPartition,
  listJoinKey,
  listJoinPrefix,
  listKey,
  listMemberKey,
  listMemberPrefix,
  listMembersPartition,
  listNameKey,
  listPrefix,
  listSizeKey,
  recordListAddressedBy,
  recordListKey,
  recordListsPrefix,
  type Key,
} from './keys';

/** A list as stored: the definition, its size and when members last came and went. */
export interface StoredList {
  listId: string;
  name: string;
  objectTypeId: string;
  processingType: 'MANUAL' | 'DYNAMIC' | 'SNAPSHOT';
  processingStatus: string;
  listVersion: number;
  size: number;
  createdAt: string;
  updatedAt: string;
  filtersUpdatedAt: string;
  createdById: string;
  updatedById: string;
  listFolderId: number;
  deletedAt?: string;
  lastRecordAddedAt?: string;
  lastRecordRemovedAt?: string;
  membershipSettings?: { includeUnassigned?: boolean; membershipTeamId?: number };
  listPermissions?: { teamsWithEditAccess: number[]; usersWithEditAccess: number[] };
  customProperties?: Record<string, string>;
  /** DYNAMIC and SNAPSHOT lists: the filters as answered (`includeFilters`), and compiled (shared/lists/list-filters.ts). */
  filterBranch?: unknown;
  filterTree?: unknown;
  /** A filter compares with the current time. */
  isTimeRelative?: boolean;
  /** When the filters took effect (creation, refilter, restore): the evaluation job of these filters carries it. */
  filtersChangedAtMs?: number;
  /** The DYNAMIC lists whose IN_LIST filters name this list (a string set; shared/lists/list-references.ts). */
  listReferences?: Set<string>;
  /** A DYNAMIC list's scheduled conversion to a static list (shared/db/list-conversions.ts). */
  conversion?: StoredListConversion;
}

/** One membership: the record and when it joined (epoch ms). */
export interface Membership {
  recordId: string;
  joinedAtMs: number;
}

const listCountKey = (hubId: number) => hubCounterKey(hubId, 'lists');
/** The count of an object type's DYNAMIC lists (not deleted): the cap's condition. */
const dynamicCountKey = (hubId: number, objectTypeId: string) => hubCounterKey(hubId, `dynamic-lists#${objectTypeId}`);

/** What a change of a DYNAMIC list writes beside its item: its entry (put or deleted) under the type's cap. */
export interface DynamicListWrites {
  objectTypeId: string;
  /** The entry's put (a list that starts or goes on being DYNAMIC) or its delete, and the type's new lists token (dynamicListsChanged). */
  writes: readonly TransactItem[];
  /** The cap on the type's DYNAMIC lists, when the change adds one. */
  max?: number;
}

function dynamicWrites(
  hubId: number,
  dynamic: DynamicListWrites | undefined,
  delta: -1 | 0 | 1,
): RoleWrite<'dynamic'>[] {
  if (!dynamic) return [];
  const writes: RoleWrite<'dynamic'>[] = dynamic.writes.map((write) => ({ role: 'dynamic', write }));
  if (delta !== 0)
    writes.push({
      role: 'dynamic',
      write: countChange({
        key: dynamicCountKey(hubId, dynamic.objectTypeId),
        attribute: 'count',
        delta,
        ...(delta > 0 && dynamic.max !== undefined ? { max: dynamic.max } : {}),
      }),
    });
  return writes;
}

const listOf = (item: Item): StoredList => withoutKeys<StoredList>(item);

/** The first list id the sequence hands out. */
export const firstListId = 200_000_001;

/**
 * The next list id: one sequence for every account (as HubSpot's list ids are), so an id names one
 * list wherever it is sent, and a test account's reset never hands an id out again; ids start at 200000001.
 */
export async function allocateListId(): Promise<string> {
  return String(await nextSequenceValue('listId', firstListId));
}

const nameClaim = (hubId: number, nameDigest: string, listId: string): TransactItem => ({
  Put: {
    TableName: tableName,
    Item: { ...listNameKey(hubId, nameDigest), listId },
    ConditionExpression: 'attribute_not_exists(pk)',
  },
});

/**
 * Stores a new list with its name's claim and the account's list count (capped at `maxLists`), and
 * `folderWrite` (list-folders.ts folderListsWrite: the list in its folder, which must exist) when given.
 */
export async function insertList(
  hubId: number,
  list: StoredList,
  nameDigest: string,
  maxLists: number,
  with_: { dynamic?: DynamicListWrites; folderWrite?: TransactItem; references?: readonly TransactItem[] } = {},
): Promise<'created' | 'name-taken' | 'too-many' | 'too-many-dynamic' | 'no-folder' | 'named-list-gone'> {
  const { dynamic, folderWrite } = with_;
  const writes: RoleWrite<'list' | 'name' | 'count' | 'dynamic' | 'folder' | 'references'>[] = [
    {
      role: 'list',
      write: {
        Put: {
          TableName: tableName,
          Item: { ...listKey(hubId, list.listId), ...list },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    },
    { role: 'name', write: nameClaim(hubId, nameDigest, list.listId) },
    { role: 'count', write: countChange({ key: listCountKey(hubId), attribute: 'count', delta: 1, max: maxLists }) },
    ...dynamicWrites(hubId, dynamic, 1),
  ];
  if (folderWrite) writes.push({ role: 'folder', write: folderWrite });
  for (const write of with_.references ?? []) writes.push({ role: 'references', write });
  const outcome = await transact(writes);
  if (outcome.committed) return 'created';
  if (outcome.reasons.some((reason) => reason.role === 'references' && reason.code === 'ConditionalCheckFailed'))
    return 'named-list-gone';
  if (outcome.reasons.some((reason) => reason.role === 'dynamic' && reason.code === 'ConditionalCheckFailed'))
    return 'too-many-dynamic';
  if (outcome.reasons.some((reason) => reason.role === 'folder' && reason.code === 'ConditionalCheckFailed'))
    return 'no-folder';
  if (outcome.reasons.some((reason) => reason.role === 'name' && reason.code === 'ConditionalCheckFailed'))
    return 'name-taken';
  if (outcome.reasons.some((reason) => reason.role === 'count' && reason.code === 'ConditionalCheckFailed'))
    return 'too-many';
  throw outcome.error;
}

/** A list, deleted or not; undefined when there is none. */
export async function findList(hubId: number, listId: string): Promise<StoredList | undefined> {
  const item = await getItem(listKey(hubId, listId));
  return item ? listOf(item) : undefined;
}

/** The lists of these ids that exist (deleted ones included), in no particular order. */
export async function findLists(hubId: number, listIds: readonly string[]): Promise<StoredList[]> {
  if (listIds.length === 0) return [];
  return (await batchGetAll(listIds.map((listId) => listKey(hubId, listId)))).map(listOf);
}

/** The id of the list that holds a name's claim. */
export async function findListIdByName(hubId: number, nameDigest: string): Promise<string | undefined> {
  const item = await getItem(listNameKey(hubId, nameDigest));
  return typeof item?.listId === 'string' ? item.listId : undefined;
}

/** Every list of the account (deleted ones included), in id order: at most the cap on lists plus the deleted ones. */
export async function listAccountLists(hubId: number, maxItems: number): Promise<StoredList[]> {
  const lists: StoredList[] = [];
  let startKey: Item | undefined;
  do {
    const page = await queryPage({ pk: hubPartition(hubId), skPrefix: listPrefix, pageSize: 500 }, startKey);
    lists.push(...page.items.map(listOf));
    startKey = page.nextKey;
  } while (startKey && lists.length < maxItems);
  return lists;
}

/** The list's item as a transaction write: a change of its definition, on the version that was read, of a list not deleted. */
function listUpdate(
  hubId: number,
  list: StoredList,
  set: Record<string, unknown>,
  options: { whenDeleted?: boolean; remove?: string[]; unreferenced?: boolean } = {},
): TransactItem {
  const names: Record<string, string> = { '#version': 'listVersion', '#deletedAt': 'deletedAt' };
  const values: Record<string, unknown> = { ':version': list.listVersion };
  const assignments = Object.entries(set).map(([name, value], index) => {
    names[`#s${index}`] = name;
    values[`:s${index}`] = value;
    return `#s${index} = :s${index}`;
  });
  const removals = (options.remove ?? []).map((name, index) => {
    names[`#r${index}`] = name;
    return `#r${index}`;
  });
  return {
    Update: {
      TableName: tableName,
      Key: listKey(hubId, list.listId),
      UpdateExpression: `SET ${assignments.join(', ')}${removals.length > 0 ? ` REMOVE ${removals.join(', ')}` : ''}`,
      ConditionExpression: `#version = :version AND ${options.whenDeleted ? 'attribute_exists(#deletedAt)' : 'attribute_not_exists(#deletedAt)'}${options.unreferenced ? ' AND attribute_not_exists(listReferences)' : ''}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/** The write of a list's scheduled conversion (or its removal, with undefined) on the list read: a new version, DYNAMIC. */
export function listConversionWrite(
  hubId: number,
  list: StoredList,
  conversion: StoredListConversion | undefined,
): TransactItem {
  return conversion
    ? listUpdate(hubId, list, { conversion, listVersion: list.listVersion + 1 })
    : listUpdate(hubId, list, { listVersion: list.listVersion + 1 }, { remove: ['conversion'] });
}

/** The writes of a DYNAMIC list's conversion (shared/db/list-conversions.ts convertDynamicList). */
export function convertedListWrites(
  hubId: number,
  list: StoredList,
  set: Record<string, unknown>,
  counterDeletes: readonly TransactItem[],
  dynamic: DynamicListWrites,
): RoleWrite<'list' | 'counter' | 'dynamic'>[] {
  return [
    { role: 'list', write: listUpdate(hubId, list, { ...set, listVersion: list.listVersion + 1 }) },
    ...counterDeletes.map((write) => ({ role: 'counter' as const, write })),
    ...dynamicWrites(hubId, dynamic, -1),
  ];
}

/** A change of a list's item on the version read (not deleted) with its DYNAMIC entry and the reference writes of the lists it names. */
async function writeListWithEntry(
  hubId: number,
  list: StoredList,
  set: Record<string, unknown>,
  dynamic: DynamicListWrites,
  references: readonly TransactItem[],
): Promise<'written' | 'changed' | 'named-list-gone'> {
  const outcome = await transact<'list' | 'dynamic' | 'references'>([
    { role: 'list', write: listUpdate(hubId, list, set) },
    ...dynamicWrites(hubId, dynamic, 0),
    ...references.map((write) => ({ role: 'references' as const, write })),
  ]);
  if (outcome.committed) return 'written';
  if (outcome.reasons.some((reason) => reason.role === 'references' && reason.code === 'ConditionalCheckFailed'))
    return 'named-list-gone';
  if (outcome.reasons.some((reason) => reason.role === 'list' && reason.code === 'ConditionalCheckFailed'))
    return 'changed';
  throw outcome.error;
}

/** Sets a list's filters (a new version, not deleted) with its DYNAMIC entry: 'changed' when it changed since it was read. */
export async function refilterList(
  hubId: number,
  list: StoredList,
  set: Record<string, unknown>,
  dynamic: DynamicListWrites,
  references: readonly TransactItem[] = [],
): Promise<'refiltered' | 'changed' | 'named-list-gone'> {
  const outcome = await writeListWithEntry(
    hubId,
    list,
    { ...set, listVersion: list.listVersion + 1 },
    dynamic,
    references,
  );
  return outcome === 'written' ? 'refiltered' : outcome;
}

/** Starts a list's evaluation again with the same filters (the list's version stays: its definition is unchanged): 'changed' when it changed since it was read. */
export async function restartListEvaluation(
  hubId: number,
  list: StoredList,
  set: Record<string, unknown>,
  dynamic: DynamicListWrites,
): Promise<'restarted' | 'changed'> {
  const outcome = await writeListWithEntry(hubId, list, set, dynamic, []);
  return outcome === 'written' ? 'restarted' : 'changed';
}

/** Renames a list: its item (a new version) and its name's claim move together. */
export async function renameList(
  hubId: number,
  list: StoredList,
  change: { name: string; oldDigest: string; newDigest: string; updatedAt: string; updatedById: string },
): Promise<'renamed' | 'name-taken' | 'changed' | 'too-many'> {
  const writes: RoleWrite<'list' | 'name' | 'old'>[] = [
    {
      role: 'list',
      write: listUpdate(hubId, list, {
        name: change.name,
        listVersion: list.listVersion + 1,
        updatedAt: change.updatedAt,
        updatedById: change.updatedById,
      }),
    },
  ];
  if (change.oldDigest !== change.newDigest) {
    writes.push({ role: 'name', write: nameClaim(hubId, change.newDigest, list.listId) });
    writes.push({
      role: 'old',
      write: { Delete: { TableName: tableName, Key: listNameKey(hubId, change.oldDigest) } },
    });
  }
  return outcomeOf(await transact(writes), 'renamed');
}

function outcomeOf<R extends string, T extends string>(
  outcome: Awaited<ReturnType<typeof transact<R>>>,
  done: T,
): T | 'name-taken' | 'changed' | 'too-many' {
  if (outcome.committed) return done;
  if (outcome.reasons.some((reason) => reason.role === 'name' && reason.code === 'ConditionalCheckFailed'))
    return 'name-taken';
  if (outcome.reasons.some((reason) => reason.role === 'count' && reason.code === 'ConditionalCheckFailed'))
    return 'too-many';
  if (
    outcome.reasons.some(
      (reason) => (reason.role === 'list' || reason.role === 'folder') && reason.code === 'ConditionalCheckFailed',
    )
  )
    return 'changed';
  throw outcome.error;
}

/**
 * Marks a list deleted (its memberships stay, for a restore) and frees its name; the account's list
 * count goes down, and `folderWrite` (the list out of its folder) goes with them when given.
 */
export async function markListDeleted(
  hubId: number,
  list: StoredList,
  nameDigest: string,
  deletedAt: string,
  with_: { dynamic?: DynamicListWrites; folderWrite?: TransactItem } = {},
): Promise<'deleted' | 'changed'> {
  const { dynamic, folderWrite } = with_;
  const outcome = await transact<'list' | 'old' | 'count' | 'dynamic' | 'folder' | 'marker'>([
    {
      role: 'list',
      write: listUpdate(hubId, list, { deletedAt, listVersion: list.listVersion + 1 }, { unreferenced: true }),
    },
    { role: 'old', write: { Delete: { TableName: tableName, Key: listNameKey(hubId, nameDigest) } } },
    { role: 'count', write: countChange({ key: listCountKey(hubId), attribute: 'count', delta: -1 }) },
    ...dynamicWrites(hubId, dynamic, -1),
    ...(folderWrite ? [{ role: 'folder' as const, write: folderWrite }] : []),
    {
      role: 'marker',
      write: {
        Put: {
          TableName: tableName,
          Item: { ...deletedListKey(hubId, Date.parse(deletedAt), list.listId), listId: list.listId },
        },
      },
    },
  ]);
  const result = outcomeOf(outcome, 'deleted');
  return result === 'deleted' ? 'deleted' : 'changed';
}

/**
 * Brings a deleted list back with its name, when no other list took the name meanwhile: into its
 * folder with `folder.write` (list-folders.ts folderListsWrite), or into `folder.listFolderId`.
 */
export async function restoreDeletedList(
  hubId: number,
  list: StoredList,
  nameDigest: string,
  maxLists: number,
  with_: {
    dynamic?: DynamicListWrites & { set: Record<string, unknown> };
    folder?: { write?: TransactItem; listFolderId?: number };
    references?: readonly TransactItem[];
  } = {},
): Promise<'restored' | 'name-taken' | 'too-many' | 'too-many-dynamic' | 'changed' | 'named-list-gone'> {
  const { dynamic, folder = {} } = with_;
  const outcome = await transact<'list' | 'name' | 'count' | 'dynamic' | 'folder' | 'marker' | 'references'>([
    {
      role: 'list',
      write: listUpdate(
        hubId,
        list,
        {
          listVersion: list.listVersion + 1,
          ...dynamic?.set,
          ...(folder.listFolderId === undefined ? {} : { listFolderId: folder.listFolderId }),
        },
        { whenDeleted: true, remove: ['deletedAt'] },
      ),
    },
    { role: 'name', write: nameClaim(hubId, nameDigest, list.listId) },
    { role: 'count', write: countChange({ key: listCountKey(hubId), attribute: 'count', delta: 1, max: maxLists }) },
    ...dynamicWrites(hubId, dynamic, 1),
    ...(folder.write ? [{ role: 'folder' as const, write: folder.write }] : []),
    ...(list.deletedAt === undefined
      ? []
      : [{ role: 'marker' as const, write: { Delete: { TableName: tableName, Key: deletedMarkerOf(hubId, list) } } }]),
    ...(with_.references ?? []).map((write) => ({ role: 'references' as const, write })),
  ]);
  if (
    !outcome.committed &&
    outcome.reasons.some((reason) => reason.role === 'references' && reason.code === 'ConditionalCheckFailed')
  )
    return 'named-list-gone';
  if (
    !outcome.committed &&
    outcome.reasons.some((reason) => reason.role === 'dynamic' && reason.code === 'ConditionalCheckFailed')
  )
    return 'too-many-dynamic';
  return outcomeOf(outcome, 'restored');
}

/** The memberships of these records in a list (those that are members). */
export async function findMemberships(
  hubId: number,
  listId: string,
  recordIds: readonly string[],
): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  if (recordIds.length === 0) return found;
  const items = await batchGetAll(recordIds.map((recordId) => listMemberKey(hubId, listId, recordId)));
  for (const item of items) {
    const recordId = String(item.sk).slice(listMemberPrefix.length);
    if (typeof item.joinedAtMs === 'number') found.set(recordId, item.joinedAtMs);
  }
  return found;
}

/**
 * The items of one membership: its item by record id, its join-order item and the record's reverse
 * item. A later writer of memberships (a dynamic list's, in the record write's own transaction)
 * writes the same three with the list's size change.
 */
export function membershipPuts(
  hubId: number,
  list: Pick<StoredList, 'listId' | 'objectTypeId' | 'processingType'>,
  member: Membership,
): TransactItem[] {
  return [
    {
      Put: {
        TableName: tableName,
        Item: { ...listMemberKey(hubId, list.listId, member.recordId), joinedAtMs: member.joinedAtMs },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    {
      Put: {
        TableName: tableName,
        Item: { ...listJoinKey(hubId, list.listId, member.joinedAtMs, member.recordId), recordId: member.recordId },
      },
    },
    {
      Put: {
        TableName: tableName,
        Item: {
          ...recordListKey(hubId, list.objectTypeId, member.recordId, list.listId),
          listId: list.listId,
          joinedAtMs: member.joinedAtMs,
          processingType: list.processingType,
        },
      },
    },
  ];
}

export function membershipDeletes(
  hubId: number,
  list: Pick<StoredList, 'listId' | 'objectTypeId'>,
  member: Membership,
): TransactItem[] {
  return [
    {
      Delete: {
        TableName: tableName,
        Key: listMemberKey(hubId, list.listId, member.recordId),
        ConditionExpression: 'attribute_exists(pk)',
      },
    },
    { Delete: { TableName: tableName, Key: listJoinKey(hubId, list.listId, member.joinedAtMs, member.recordId) } },
    { Delete: { TableName: tableName, Key: recordListKey(hubId, list.objectTypeId, member.recordId, list.listId) } },
  ];
}

/** The items one membership change writes: three. */
export const itemsPerMembership = 3;

/**
 * One transaction of membership changes with the list's size (ADD, on a list not deleted), and
 * `extra` writes (the DYNAMIC lists that depend on the change, the type's lists token): 'stale' when
 * a membership or a record changed since it was read (the caller reads again), 'stale-lists' when
 * the type's DYNAMIC lists did, 'gone' when the list was deleted.
 */
export async function writeMembershipChange(
  hubId: number,
  list: StoredList,
  change: { adds: readonly Membership[]; removes: readonly Membership[]; at: string },
  extra: readonly RoleWrite<'member' | 'token'>[] = [],
): Promise<'written' | 'stale' | 'stale-lists' | 'gone'> {
  const set: string[] = ['updatedAt = :at'];
  if (change.adds.length > 0) set.push('lastRecordAddedAt = :at');
  if (change.removes.length > 0) set.push('lastRecordRemovedAt = :at');
  const writes: RoleWrite<'list' | 'member' | 'token'>[] = [
    ...extra,
    {
      role: 'list',
      write: {
        Update: {
          TableName: tableName,
          Key: listKey(hubId, list.listId),
          UpdateExpression: `SET ${set.join(', ')} ADD #size :delta`,
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deletedAt)',
          ExpressionAttributeNames: { '#size': 'size' },
          ExpressionAttributeValues: { ':at': change.at, ':delta': change.adds.length - change.removes.length },
        },
      },
    },
  ];
  for (const member of change.adds)
    for (const write of membershipPuts(hubId, list, member)) writes.push({ role: 'member', write });
  for (const member of change.removes)
    for (const write of membershipDeletes(hubId, list, member)) writes.push({ role: 'member', write });
  const outcome = await transact(writes);
  if (outcome.committed) return 'written';
  if (outcome.reasons.some((reason) => reason.role === 'list' && reason.code === 'ConditionalCheckFailed'))
    return 'gone';
  if (outcome.reasons.some((reason) => reason.role === 'token' && reason.code === 'ConditionalCheckFailed'))
    return 'stale-lists';
  if (outcome.reasons.some((reason) => reason.role === 'member' && reason.code === 'ConditionalCheckFailed'))
    return 'stale';
  throw outcome.error;
}

export interface MembershipPage {
  memberships: Membership[];
  hasMore: boolean;
}

/**
 * One page of a list's memberships by record id (`order` 'id') or join order ('joined'): after a
 * cursor ascending, or before one descending; one Query of limit + 1 items (the one more tells
 * whether another page exists). Cursors are the sort-key forms (`<recordId>`, `<ms>#<recordId>`).
 */
export async function membershipPage(
  hubId: number,
  listId: string,
  query: { order: 'id' | 'joined'; after?: string; before?: string; limit: number },
): Promise<MembershipPage> {
  const prefix = query.order === 'id' ? listMemberPrefix : listJoinPrefix;
  const pk = listMembersPartition(hubId, listId);
  const isDescending = query.after === undefined && query.before !== undefined;
  const cursor = query.after ?? query.before;
  const page = await queryPage(
    { pk, skPrefix: prefix, pageSize: query.limit + 1, newestFirst: isDescending },
    cursor === undefined ? undefined : { pk, sk: `${prefix}${cursor}` },
  );
  const memberships = page.items.map((item) =>
    query.order === 'id'
      ? { recordId: String(item.sk).slice(prefix.length), joinedAtMs: Number(item.joinedAtMs) }
      : {
          recordId: String(item.recordId),
          joinedAtMs: Number(String(item.sk).slice(prefix.length, prefix.length + 13)),
        },
  );
  const hasMore = memberships.length > query.limit;
  return { memberships: memberships.slice(0, query.limit), hasMore };
}

/** One list a record is in, from its reverse item: a DYNAMIC list's size is in its counters, any other's on its item. */
export interface RecordMembership {
  listId: string;
  joinedAtMs: number;
  processingType: 'DYNAMIC' | 'MANUAL';
}

/** A record's memberships (list id and join time), one Query of its reverse items. */
export async function recordMemberships(
  hubId: number,
  objectTypeId: string,
  recordId: string,
): Promise<RecordMembership[]> {
  const found: RecordMembership[] = [];
  let startKey: Item | undefined;
  do {
    const page = await queryPage(
      { pk: hubPartition(hubId), skPrefix: recordListsPrefix(objectTypeId, recordId), pageSize: 500 },
      startKey,
    );
    for (const item of page.items)
      found.push({
        listId: String(item.listId),
        joinedAtMs: Number(item.joinedAtMs),
        processingType: item.processingType === 'DYNAMIC' ? 'DYNAMIC' : 'MANUAL',
      });
    startKey = page.nextKey;
  } while (startKey);
  return found;
}

/** One membership as its reverse item holds it (a stream image of one): the account, the list, the record and its join time. */
export interface ReverseMembership {
  hubId: number;
  listId: string;
  objectTypeId: string;
  recordId: string;
  joinedAtMs: number;
}

/** The membership a reverse item (membershipPuts) holds, or undefined for any other item. */
export function reverseMembershipOf(item: Item | undefined): ReverseMembership | undefined {
  const key = item ? recordListAddressedBy(item) : undefined;
  const joinedAtMs = item?.joinedAtMs;
  if (!key || typeof joinedAtMs !== 'number' || !Number.isFinite(joinedAtMs)) return undefined;
  return { ...key, joinedAtMs };
}

/** The keys of a list's size counters (a DYNAMIC list's; none exist for the others). */
const sizeCounterKeys = (hubId: number, listId: string): Key[] =>
  Array.from({ length: listSizeShards }, (_, shard) => listSizeKey(hubId, listId, shard));

/**
 * Removes a list for good with its memberships (the fixtures' undoing of a list they made, never an
 * API call): its memberships page by page, each one's three items (membershipPuts) in transactions
 * as full as the membership add's, then in one transaction the list, its name's claim, the account's
 * list count, its size counters and, for a DYNAMIC list, its entry among its type's lists
 * (`dynamic`). Its pages are as many as the members its maker added and its type's record writes made.
 */
export async function removeListForGood(
  hubId: number,
  list: Pick<StoredList, 'listId' | 'objectTypeId'>,
  nameDigest: string,
  dynamic?: DynamicListWrites,
): Promise<void> {
  const perTransaction = Math.floor(maxTransactionItems / itemsPerMembership);
  const deleteOf = (Key: Key): TransactItem => ({ Delete: { TableName: tableName, Key } });
  let startKey: Item | undefined;
  do {
    const page = await queryPage(
      { pk: listMembersPartition(hubId, list.listId), skPrefix: listMemberPrefix, pageSize: perTransaction * 8 },
      startKey,
    );
    const members = page.items.map((item) => ({
      recordId: String(item.sk).slice(listMemberPrefix.length),
      joinedAtMs: Number(item.joinedAtMs),
    }));
    for (let start = 0; start < members.length; start += perTransaction)
      await transactAll(
        members
          .slice(start, start + perTransaction)
          .flatMap((member) => [
            deleteOf(listMemberKey(hubId, list.listId, member.recordId)),
            deleteOf(listJoinKey(hubId, list.listId, member.joinedAtMs, member.recordId)),
            deleteOf(recordListKey(hubId, list.objectTypeId, member.recordId, list.listId)),
          ]),
      );
    startKey = page.nextKey;
  } while (startKey);
  await transactAll([
    deleteOf(listKey(hubId, list.listId)),
    deleteOf(listNameKey(hubId, nameDigest)),
    countChange({ key: listCountKey(hubId), attribute: 'count', delta: -1 }),
    ...sizeCounterKeys(hubId, list.listId).map(deleteOf),
    ...dynamicWrites(hubId, dynamic, -1).map((role) => role.write),
  ]);
}

/** The account's lists not deleted (the count the cap on lists holds). */
export async function countActiveLists(hubId: number): Promise<number> {
  const item = await getItem(listCountKey(hubId));
  return typeof item?.count === 'number' ? item.count : 0;
}

/**
 * One page of the account's lists not deleted, in id order after a list id: one Query of at most
 * `count + 1` list items, the deleted ones and those the filters leave out dropped by DynamoDB
 * (so a page may hold fewer than `count`). `nextAfter`: where the next page starts, when lists may follow.
 */
export async function activeListsPage(
  hubId: number,
  query: { after?: string; count: number; processingTypes?: readonly string[]; objectTypeId?: string },
): Promise<{ lists: StoredList[]; nextAfter?: string }> {
  const pk = hubPartition(hubId);
  const filters = ['attribute_not_exists(#deletedAt)'];
  const names: Record<string, string> = { '#deletedAt': 'deletedAt' };
  const values: Item = {};
  if (query.processingTypes && query.processingTypes.length > 0) {
    names['#type'] = 'processingType';
    const placeholders = query.processingTypes.map((type, index) => {
      values[`:type${index}`] = type;
      return `:type${index}`;
    });
    filters.push(`#type IN (${placeholders.join(', ')})`);
  }
  if (query.objectTypeId !== undefined) {
    names['#objectTypeId'] = 'objectTypeId';
    values[':objectTypeId'] = query.objectTypeId;
    filters.push('#objectTypeId = :objectTypeId');
  }
  const page = await queryPage(
    { pk, skPrefix: listPrefix, pageSize: query.count + 1, filter: filters.join(' AND '), names, values },
    query.after === undefined ? undefined : listKey(hubId, query.after),
  );
  const lists = page.items.map(listOf);
  if (lists.length > query.count) {
    const shown = lists.slice(0, query.count);
    return { lists: shown, nextAfter: shown.at(-1)?.listId };
  }
  const nextSk = page.nextKey ? String(page.nextKey.sk) : undefined;
  return {
    lists,
    ...(nextSk ? { nextAfter: String(Number(nextSk.slice(listPrefix.length))) } : {}),
  };
}

const deletedMarkerOf = (hubId: number, list: StoredList): Key =>
  deletedListKey(hubId, Date.parse(list.deletedAt ?? ''), list.listId);

/** Deletion markers of the account's lists deleted before `beforeMs`, the longest ago first: one Query of at most `most`. */
export async function listsDeletedBefore(
  hubId: number,
  beforeMs: number,
  most: number,
): Promise<{ listId: string; marker: Key }[]> {
  const page = await queryPage({
    pk: hubPartition(hubId),
    skCondition: skBetween({
      low: deletedListPrefix,
      high: `${deletedListPrefix}${String(beforeMs).padStart(13, '0')}`,
    }),
    pageSize: most,
  });
  return page.items.map((item) => ({
    listId: String(item.listId),
    marker: { pk: String(item.pk), sk: String(item.sk) },
  }));
}

/**
 * Removes up to `most` memberships of a deleted list (each one's three items), and when no more are
 * left the list's item, its size counters and its deletion marker: 'purged' then, else 'more' (the next call goes on).
 * Only for a list that can no longer be restored: nothing here is conditional.
 */
export async function purgeDeletedList(hubId: number, list: StoredList, most: number): Promise<'purged' | 'more'> {
  const page = await queryPage({
    pk: listMembersPartition(hubId, list.listId),
    skPrefix: listMemberPrefix,
    pageSize: most,
  });
  const keys = page.items.flatMap((item) => {
    const member = { recordId: String(item.sk).slice(listMemberPrefix.length), joinedAtMs: Number(item.joinedAtMs) };
    return [
      listMemberKey(hubId, list.listId, member.recordId),
      listJoinKey(hubId, list.listId, member.joinedAtMs, member.recordId),
      recordListKey(hubId, list.objectTypeId, member.recordId, list.listId),
    ];
  });
  if (page.nextKey) {
    await batchDeleteAll(keys);
    return 'more';
  }
  await batchDeleteAll([
    ...keys,
    ...sizeCounterKeys(hubId, list.listId),
    listKey(hubId, list.listId),
    deletedMarkerOf(hubId, list),
  ]);
  return 'purged';
}

/** Removes a deletion marker whose list is not there (purged, or restored and deleted again since). */
export async function removeDeletedMarker(marker: Key): Promise<void> {
  await batchDeleteAll([marker]);
}
