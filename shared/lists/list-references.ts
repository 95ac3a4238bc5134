/**
 * Lists named by other lists' IN_LIST and ASSOCIATION filters. An IN_LIST filter may name an active
 * list of its own object type, an ASSOCIATION filter an active list of the type its association type
 * leads to; neither its own list, nor a list whose filters lead back to it (a cycle). A DYNAMIC list
 * is recorded on each list it names (the named list's `listReferences`, a string set), in the
 * transaction that creates, refilters, restores, deletes or converts it: a list named that way
 * cannot be deleted, and `hs_list_reference_count` counts them.
 */
import { ValidationError } from '../base/errors';
import { tableName } from '../db/client';
import { transactAll, type TransactItem } from '../db/core';
import { listKey } from '../db/keys';
import { findLists, type StoredList } from '../db/lists';
import { resolveTypeBetween } from '../association-types/association-labels';
import { namedListIdsOfTree, type ListFilterTree } from './list-filter-match';
import type { CompiledListFilters } from './list-filters';
import { listLimits } from './list-limits';
import { keyedTypeOfList } from './list-types';

/** The lists a stored list's filters name, in IN_LIST and ASSOCIATION filters. */
export const listsNamedBy = (list: Pick<StoredList, 'filterTree'>): string[] =>
  list.filterTree === undefined ? [] : namedListIdsOfTree(list.filterTree as ListFilterTree);

/** The lists compiled filters name, in IN_LIST and ASSOCIATION filters, each once. */
export const listsNamedByFilters = (
  compiled: Pick<CompiledListFilters, 'listsNamed' | 'associationsNamed'>,
): string[] => [
  ...new Set([
    ...compiled.listsNamed.map((entry) => entry.listId),
    ...compiled.associationsNamed.map((entry) => entry.leaf.listId),
  ]),
];

/** The DYNAMIC lists whose IN_LIST or ASSOCIATION filters name the list, in id order. */
export const referencesOf = (list: Pick<StoredList, 'listReferences'>): string[] =>
  [...(list.listReferences ?? [])].sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));

const badList = (field: string, path: string, message: string) =>
  new ValidationError(`${field}.${path}: ${message}`, { context: { [field]: [path] } });

/**
 * Checks the lists the filters name: each IN_LIST filter's an active list of `objectTypeId`; each
 * ASSOCIATION filter's association type one from `objectTypeId` of its category, and its list an
 * active list of the type that association type leads to (which the filter's leaf then counts, its
 * toObjectTypeId set here); none `listId` itself, and (for an existing list, `listId`) none whose
 * filters name `listId` again, however indirectly; and each ASSOCIATION branch's association type
 * one from `objectTypeId` of its category to the branch's object type. A walk of the lists named by the lists named,
 * one BatchGetItem a level, at most maxDynamicListsPerType levels (only DYNAMIC lists' filters go
 * on naming lists). Answers the lists named.
 */
export async function requireNamedLists(
  hubId: number,
  compiled: Pick<CompiledListFilters, 'listsNamed' | 'associationsNamed' | 'associationBranches'>,
  target: { listId?: string; objectTypeId: string },
  field = 'filterBranch',
): Promise<StoredList[]> {
  for (const branch of compiled.associationBranches) {
    try {
      await resolveTypeBetween(
        hubId,
        keyedTypeOfList(target.objectTypeId),
        keyedTypeOfList(branch.objectTypeId),
        branch.associationTypeId,
        branch.associationCategory,
      );
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      throw badList(
        field,
        `${branch.path}.associationTypeId`,
        `${branch.associationCategory} association type ${branch.associationTypeId} does not lead from ${target.objectTypeId} records to ${branch.objectTypeId} records`,
      );
    }
  }
  const namedIds = listsNamedByFilters(compiled);
  if (namedIds.length === 0) return [];
  const named = await findLists(hubId, namedIds);
  const byId = new Map(named.map((list) => [list.listId, list]));
  for (const association of compiled.associationsNamed) {
    const { leaf, path } = association;
    const listPath = `${path}.listId`;
    if (leaf.listId === target.listId)
      throw badList(field, listPath, `a list's ASSOCIATION filters cannot name the list itself`);
    const list = byId.get(leaf.listId);
    if (!list || list.deletedAt !== undefined) throw badList(field, listPath, `there is no list ${leaf.listId}`);
    if (association.toObjectTypeId !== undefined && association.toObjectTypeId !== list.objectTypeId)
      throw badList(
        field,
        `${path}.toObjectTypeId`,
        `list ${leaf.listId} holds ${list.objectTypeId} records, not ${association.toObjectTypeId.slice(0, 64)}`,
      );
    try {
      await resolveTypeBetween(
        hubId,
        keyedTypeOfList(target.objectTypeId),
        keyedTypeOfList(list.objectTypeId),
        leaf.associationTypeId,
        association.associationCategory,
      );
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      throw badList(
        field,
        `${path}.associationTypeId`,
        `${association.associationCategory} association type ${leaf.associationTypeId} does not lead from ${target.objectTypeId} records to ${list.objectTypeId} records (the type of list ${leaf.listId})`,
      );
    }
    leaf.toObjectTypeId = list.objectTypeId;
  }
  for (const { listId, path } of compiled.listsNamed) {
    if (listId === target.listId) throw badList(field, path, `a list's IN_LIST filters cannot name the list itself`);
    const list = byId.get(listId);
    if (!list || list.deletedAt !== undefined) throw badList(field, path, `there is no list ${listId}`);
    if (list.objectTypeId !== target.objectTypeId)
      throw badList(
        field,
        path,
        `list ${listId} holds ${list.objectTypeId} records; an IN_LIST filter names a list of ${target.objectTypeId} records`,
      );
  }
  if (target.listId === undefined) return named;
  // Which named list leads back to the target: walk down from each, level by level.
  const origin = new Map<string, { listId: string; path: string }>([
    ...compiled.associationsNamed.map((entry): [string, { listId: string; path: string }] => [
      entry.leaf.listId,
      { listId: entry.leaf.listId, path: `${entry.path}.listId` },
    ]),
    ...compiled.listsNamed.map((entry): [string, { listId: string; path: string }] => [entry.listId, entry]),
  ]);
  let level = named.filter((list) => list.processingType === 'DYNAMIC');
  const seen = new Set(level.map((list) => list.listId));
  for (let depth = 0; level.length > 0 && depth <= listLimits.maxDynamicListsPerType; depth += 1) {
    const next: string[] = [];
    for (const list of level) {
      const root = origin.get(list.listId) as { listId: string; path: string };
      for (const listId of listsNamedBy(list)) {
        if (listId === target.listId)
          throw badList(
            field,
            root.path,
            `list ${root.listId} leads back to list ${target.listId} through IN_LIST or ASSOCIATION filters: lists cannot name each other in a cycle`,
          );
        if (seen.has(listId)) continue;
        seen.add(listId);
        origin.set(listId, root);
        next.push(listId);
      }
    }
    level = (await findLists(hubId, next)).filter(
      (list) => list.processingType === 'DYNAMIC' && list.deletedAt === undefined,
    );
  }
  return named;
}

/** Records `listId` (a DYNAMIC list) on a list its filters name: the named list must be active. */
export function referenceAdd(hubId: number, namedListId: string, listId: string): TransactItem {
  return {
    Update: {
      TableName: tableName,
      Key: listKey(hubId, namedListId),
      UpdateExpression: 'ADD #refs :list',
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deletedAt)',
      ExpressionAttributeNames: { '#refs': 'listReferences' },
      ExpressionAttributeValues: { ':list': new Set([listId]) },
    },
  };
}

/** Takes `listId` off a list its filters named (the set goes when it is empty). */
export function referenceRemove(hubId: number, namedListId: string, listId: string): TransactItem {
  return {
    Update: {
      TableName: tableName,
      Key: listKey(hubId, namedListId),
      UpdateExpression: 'DELETE #refs :list',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#refs': 'listReferences' },
      ExpressionAttributeValues: { ':list': new Set([listId]) },
    },
  };
}

/** The reference writes of a DYNAMIC list whose filters go from naming `before` to naming `after`. */
export function referenceChanges(
  hubId: number,
  list: Pick<StoredList, 'listId'>,
  before: readonly string[],
  after: readonly string[],
): { adds: TransactItem[]; removes: TransactItem[] } {
  const was = new Set(before);
  const is = new Set(after);
  return {
    adds: after.filter((id) => !was.has(id)).map((id) => referenceAdd(hubId, id, list.listId)),
    removes: before.filter((id) => !is.has(id)).map((id) => referenceRemove(hubId, id, list.listId)),
  };
}

/**
 * The list with only the references of active DYNAMIC lists that still name it: any other (a list
 * removed without its references, as a failed fixtures load removes its lists) is taken off first,
 * so it never keeps the list from being deleted. One BatchGetItem, and one transaction when some go.
 */
export async function withLiveReferences(hubId: number, list: StoredList): Promise<StoredList> {
  const references = referencesOf(list);
  if (references.length === 0) return list;
  const naming = new Map((await findLists(hubId, references)).map((entry) => [entry.listId, entry]));
  const isLive = (listId: string) => {
    const entry = naming.get(listId);
    return (
      entry !== undefined &&
      entry.deletedAt === undefined &&
      entry.processingType === 'DYNAMIC' &&
      listsNamedBy(entry).includes(list.listId)
    );
  };
  const stale = references.filter((listId) => !isLive(listId));
  if (stale.length === 0) return list;
  await transactAll(stale.map((listId) => referenceRemove(hubId, list.listId, listId)));
  const live = references.filter(isLive);
  const { listReferences: _references, ...rest } = list;
  return live.length > 0 ? { ...rest, listReferences: new Set(live) } : rest;
}

/** A list other DYNAMIC lists name cannot be deleted: 400 naming them. */
export function requireUnreferenced(list: Pick<StoredList, 'listId' | 'listReferences'>): void {
  const references = referencesOf(list);
  if (references.length === 0) return;
  throw new ValidationError(
    `List ${list.listId} is named in the IN_LIST or ASSOCIATION filters of list${references.length === 1 ? '' : 's'} ${references.join(', ')}: change or delete ${references.length === 1 ? 'that list' : 'those lists'} first`,
    { context: { listId: [list.listId] } },
  );
}
