import { nowMs } from '../base/clock';
import { ConflictError, NotFoundError, ServiceUnavailableError, ValidationError } from '../base/errors';
import { dynamicListPut, dynamicListsChanged, type DynamicListEntry } from '../db/dynamic-lists';
import { entryConversionOf } from '../db/list-conversions';
import {
  allocateListId,
  findList,
  findLists,
  insertList,
  markListDeleted,
  refilterList,
  renameList,
  restartListEvaluation,
  restoreDeletedList,
  type StoredList,
} from '../db/lists';
import { folderListsWrite, readFolderTree } from '../db/list-folders';
import { jobQueue } from '../jobs/job-queue';
import type { ObjectType } from '../objects/object-types';
import { loadPropertySchema } from '../properties/type-properties';
import { forgetDynamicLists } from './dynamic-lists';
import { listIdsOfTree, type ListFilterTree } from './list-filter-match';
import { compileListFilters, listFilterLimits, type AssociatedScope, type CompiledListFilters } from './list-filters';
import { dynamicRemovalOf, settleDueConversion } from './list-conversion-run';
import { listLimits } from './list-limits';
import {
  listsNamedBy,
  listsNamedByFilters,
  referenceAdd,
  referenceChanges,
  referencesOf,
  requireNamedLists,
  requireUnreferenced,
  withLiveReferences,
} from './list-references';
import { isGone, purgeIfGone, purgeOldestGoneList } from './list-lifetime';
import { keyedTypeOfList, requireListObjectType } from './list-types';
import { listNameDigest, publicListOf, withCounters, type ListViewOptions, type PublicList } from './list-view';

export interface NewList {
  name: string;
  objectTypeId: string;
  processingType: string;
  filterBranch?: unknown;
  listFolderId?: number;
  membershipSettings?: StoredList['membershipSettings'];
  listPermissions?: StoredList['listPermissions'];
  customProperties?: Record<string, string>;
}

/** Who acts: the account and the installing user (createdById, updatedById). */
export interface ListActor {
  hubId: number;
  userId: number;
}

const nowIso = (): string => new Date(nowMs()).toISOString();

const processingTypes = ['MANUAL', 'DYNAMIC', 'SNAPSHOT'] as const;
type ProcessingType = (typeof processingTypes)[number];

function requireProcessingType(processingType: string): ProcessingType {
  const known = processingTypes.find((entry) => entry === processingType);
  if (known) return known;
  throw new ValidationError(`processingType must be MANUAL, DYNAMIC or SNAPSHOT, not ${processingType}`, {
    context: { processingType: [processingType] },
  });
}

/** Every property name a filter branch names, walked without recursion and bounded by its node count (the compile checks the rest). */
function filterPropertyNames(branch: unknown): string[] {
  const names = new Set<string>();
  const stack: unknown[] = [branch];
  for (let visited = 0; stack.length > 0 && visited < 5000; visited += 1) {
    const node = stack.pop();
    if (!node || typeof node !== 'object') continue;
    const entry = node as Record<string, unknown>;
    if (typeof entry.property === 'string') names.add(entry.property);
    for (const key of ['filterBranches', 'filters'])
      if (Array.isArray(entry[key])) for (const child of entry[key] as unknown[]) stack.push(child);
  }
  return [...names];
}

/**
 * The object types the filters' ASSOCIATION branches name, each with the property names of its
 * branches' filters: walked without recursion, bounded by its node count and by one type more than
 * a filterBranch may name (the compile refuses the rest).
 */
function associationBranchTypes(branch: unknown): Map<string, string[]> {
  const types = new Map<string, Set<string>>();
  const stack: unknown[] = [branch];
  for (let visited = 0; stack.length > 0 && visited < 5000; visited += 1) {
    const node = stack.pop();
    if (!node || typeof node !== 'object') continue;
    const entry = node as Record<string, unknown>;
    if (entry.filterBranchType === 'ASSOCIATION' && typeof entry.objectTypeId === 'string') {
      if (!types.has(entry.objectTypeId) && types.size > listFilterLimits.associationBranches) continue;
      const names = types.get(entry.objectTypeId) ?? new Set<string>();
      types.set(entry.objectTypeId, names);
      for (const filter of Array.isArray(entry.filters) ? (entry.filters as unknown[]) : [])
        if (filter && typeof filter === 'object' && typeof (filter as Record<string, unknown>).property === 'string')
          names.add((filter as Record<string, string>).property as string);
      continue;
    }
    for (const key of ['filterBranches', 'filters'])
      if (Array.isArray(entry[key])) for (const child of entry[key] as unknown[]) stack.push(child);
  }
  return new Map([...types].map(([id, names]) => [id, [...names]]));
}

/** A DYNAMIC or SNAPSHOT list's filters, checked and compiled against the type's properties (and its ASSOCIATION branches' against theirs). */
async function compiledFilters(type: ObjectType, hubId: number, branch: unknown): Promise<CompiledListFilters> {
  if (branch === undefined || branch === null)
    throw new ValidationError('A DYNAMIC or SNAPSHOT list needs a filterBranch', {
      context: { filterBranch: ['missing'] },
    });
  const lookup = await loadPropertySchema(type, hubId, filterPropertyNames(branch));
  const scopes = new Map<string, AssociatedScope>();
  for (const [objectTypeId, names] of associationBranchTypes(branch)) {
    let associated: ObjectType;
    try {
      associated = await requireListObjectType(hubId, objectTypeId, 'filterBranch');
    } catch (error) {
      // An unknown type: the compile names the branch's objectTypeId.
      if (error instanceof ValidationError) continue;
      throw error;
    }
    scopes.set(objectTypeId, { lookup: await loadPropertySchema(associated, hubId, names), searched: associated });
  }
  return compileListFilters(branch, lookup, type, 'filterBranch', (objectTypeId) => scopes.get(objectTypeId));
}

/** A DYNAMIC list's entry for the record writes (shared/db/dynamic-lists.ts): being evaluated until its job completes. */
const dynamicEntryOf = (
  list: StoredList,
  compiled: CompiledListFilters,
  filtersChangedAtMs: number,
): DynamicListEntry => ({
  listId: list.listId,
  objectTypeId: list.objectTypeId,
  tree: compiled.tree,
  isTimeRelative: compiled.isTimeRelative,
  isProcessing: true,
  filtersChangedAtMs,
  ...(compiled.listsNamed.length > 0 ? { listIds: compiled.listsNamed.map((entry) => entry.listId) } : {}),
  ...(list.conversion ? { conversion: entryConversionOf(list.conversion) } : {}),
});

const namedListGone = () =>
  new ValidationError('A list the IN_LIST or ASSOCIATION filters name was deleted meanwhile', {
    context: { filterBranch: ['listId'] },
  });

/** A stored DYNAMIC list's entry as its filters are, being evaluated again from `filtersChangedAtMs` (a restore, a named list refiltered). */
function processingEntryOf(list: StoredList, filtersChangedAtMs: number): DynamicListEntry {
  const named = list.filterTree === undefined ? [] : listIdsOfTree(list.filterTree as ListFilterTree);
  return {
    listId: list.listId,
    objectTypeId: list.objectTypeId,
    tree: list.filterTree,
    isTimeRelative: list.isTimeRelative === true,
    isProcessing: true,
    filtersChangedAtMs,
    ...(list.conversion ? { conversion: entryConversionOf(list.conversion) } : {}),
    ...(named.length > 0 ? { listIds: named } : {}),
  };
}

/** Starts the evaluations of lists marked PROCESSING again (markDependentsProcessing's). */
async function startEvaluations(hubId: number, lists: readonly StoredList[]): Promise<void> {
  for (const list of lists) await startEvaluation(hubId, list, list.filtersChangedAtMs ?? 0);
}

/** Starts the evaluation of a list's filters over the type's existing records (list-evaluation.ts). */
async function startEvaluation(hubId: number, list: StoredList, filtersChangedAtMs: number): Promise<void> {
  forgetDynamicLists(hubId, list.objectTypeId);
  await jobQueue().send({ kind: 'list-evaluation', hubId, listId: list.listId, filtersChangedAtMs, shard: 0 }, 0);
}

const tooManyDynamic = (objectTypeId: string) =>
  new ValidationError(
    `This account has ${listLimits.maxDynamicListsPerType} DYNAMIC lists of object type ${objectTypeId}, the most it may have: delete one, or make a MANUAL or SNAPSHOT list`,
    { context: { processingType: ['DYNAMIC'] } },
  );

export function requireListName(name: string, field = 'name'): string {
  if (name.trim() === '' || name.length > listLimits.maxNameLength)
    throw new ValidationError(`A list name is not blank and has at most ${listLimits.maxNameLength} characters`, {
      context: { [field]: [name] },
    });
  return name;
}

const nameTaken = (name: string) =>
  new ConflictError(`A list named ${name} already exists in this account (names are compared ignoring case)`, {
    context: { name: [name] },
  });

const tooManyLists = () =>
  new ValidationError(`This account has ${listLimits.maxListsPerAccount} lists, the most it may have`, {
    context: { lists: [String(listLimits.maxListsPerAccount)] },
  });

const changedMeanwhile = () =>
  new ServiceUnavailableError('The list changed while this request ran. Retry the request.', {
    headers: { 'retry-after': '1' },
  });

export async function createList(actor: ListActor, input: NewList): Promise<PublicList> {
  const processingType = requireProcessingType(input.processingType);
  if (processingType === 'MANUAL' && input.filterBranch !== undefined)
    throw new ValidationError('A MANUAL list has no filters: leave filterBranch out', {
      context: { filterBranch: ['MANUAL'] },
    });
  const name = requireListName(input.name);
  const type = await requireListObjectType(actor.hubId, input.objectTypeId, 'objectTypeId');
  const compiled =
    processingType === 'MANUAL' ? undefined : await compiledFilters(type, actor.hubId, input.filterBranch);
  if (compiled) await requireNamedLists(actor.hubId, compiled, { objectTypeId: input.objectTypeId });
  const changedAtMs = nowMs();
  const at = new Date(changedAtMs).toISOString();
  const list: StoredList = {
    listId: await allocateListId(),
    name,
    objectTypeId: input.objectTypeId,
    processingType,
    processingStatus: compiled ? 'PROCESSING' : 'COMPLETE',
    listVersion: 1,
    size: 0,
    createdAt: at,
    updatedAt: at,
    filtersUpdatedAt: at,
    createdById: String(actor.userId),
    updatedById: String(actor.userId),
    listFolderId: input.listFolderId ?? 0,
    ...(input.membershipSettings ? { membershipSettings: input.membershipSettings } : {}),
    ...(input.listPermissions ? { listPermissions: input.listPermissions } : {}),
    ...(input.customProperties ? { customProperties: input.customProperties } : {}),
    ...(compiled
      ? {
          filterBranch: compiled.branch,
          filterTree: compiled.tree,
          isTimeRelative: compiled.isTimeRelative,
          filtersChangedAtMs: changedAtMs,
        }
      : {}),
  };
  const dynamic =
    compiled && processingType === 'DYNAMIC'
      ? {
          objectTypeId: list.objectTypeId,
          writes: [
            dynamicListPut(actor.hubId, dynamicEntryOf(list, compiled, changedAtMs)),
            ...dynamicListsChanged(type, actor.hubId),
          ],
          max: listLimits.maxDynamicListsPerType,
        }
      : undefined;
  const folderWrite = folderListsWrite(actor.hubId, {
    listId: list.listId,
    from: '0',
    to: String(list.listFolderId),
    at,
  });
  // A DYNAMIC list is recorded on the lists it names (list-references.ts); a SNAPSHOT list reads them only once.
  const references =
    dynamic && compiled
      ? listsNamedByFilters(compiled).map((namedId) => referenceAdd(actor.hubId, namedId, list.listId))
      : [];
  const outcome = await insertList(actor.hubId, list, listNameDigest(name), listLimits.maxListsPerAccount, {
    dynamic,
    folderWrite,
    references,
  });
  if (outcome === 'named-list-gone') throw namedListGone();
  if (outcome === 'no-folder')
    throw new ValidationError(`No list folder has the id ${list.listFolderId} (0, or none, is the root)`, {
      context: { listFolderId: [String(list.listFolderId)] },
    });
  if (outcome === 'name-taken') throw nameTaken(name);
  if (outcome === 'too-many') throw tooManyLists();
  if (outcome === 'too-many-dynamic') throw tooManyDynamic(list.objectTypeId);
  if (compiled) await startEvaluation(actor.hubId, list, changedAtMs);
  return publicListOf(list, { includeFilters: true });
}

export const listNotFound = (listId: string) =>
  new NotFoundError(`List ${listId} does not exist`, { context: { listId: [listId] } });

/**
 * A list of the account that is not deleted, else 404 naming it. `purgeGone` (for callers that may
 * write): a list found deleted more than 90 days ago is purged a step (list-lifetime.ts) before the 404.
 * `settleConversion` (for callers that change the list or depend on its processing type): a DYNAMIC
 * list whose scheduled conversion is due is converted first (list-conversion-run.ts).
 */
export async function requireActiveList(
  hubId: number,
  listId: string,
  options: { purgeGone?: boolean; settleConversion?: boolean } = {},
): Promise<StoredList> {
  const list = /^[0-9]{1,12}$/.test(listId) ? await findList(hubId, listId) : undefined;
  if (options.purgeGone) await purgeIfGone(hubId, list);
  if (!list || list.deletedAt !== undefined) throw listNotFound(listId);
  return options.settleConversion ? settleDueConversion(hubId, list) : list;
}

export async function renameAccountList(
  actor: ListActor,
  listId: string,
  rawName: string | undefined,
  options: ListViewOptions = {},
) {
  const name = requireListName(rawName ?? '', 'listName');
  const list = await requireActiveList(actor.hubId, listId);
  const updatedAt = nowIso();
  const outcome = await renameList(actor.hubId, list, {
    name,
    oldDigest: listNameDigest(list.name),
    newDigest: listNameDigest(name),
    updatedAt,
    updatedById: String(actor.userId),
  });
  if (outcome === 'name-taken') throw nameTaken(name);
  if (outcome !== 'renamed') throw changedMeanwhile();
  const renamed = { ...list, name, listVersion: list.listVersion + 1, updatedAt, updatedById: String(actor.userId) };
  return (await withCounters(actor.hubId, [renamed], options))[0] as PublicList;
}

/**
 * New filters for a DYNAMIC list: a new version whose evaluation over the type's records starts
 * after the fence (PROCESSING until done); record writes evaluate the new filters from then on.
 */
export async function updateListFilters(actor: ListActor, listId: string, filterBranch: unknown): Promise<PublicList> {
  const list = await requireActiveList(actor.hubId, listId, { settleConversion: true });
  if (list.processingType !== 'DYNAMIC')
    throw new ValidationError(
      `List ${listId} is a ${list.processingType} list: only DYNAMIC lists have filters to update`,
      { context: { processingType: [list.processingType] } },
    );
  const compiled = await compiledFilters(keyedTypeOfList(list.objectTypeId), actor.hubId, filterBranch);
  await requireNamedLists(actor.hubId, compiled, list);
  // The lists that name this one are evaluated again once its own evaluation is done.
  const dependents = await markDependentsProcessing(actor.hubId, list);
  const changedAtMs = Math.max(nowMs(), (list.filtersChangedAtMs ?? 0) + 1);
  const at = new Date(changedAtMs).toISOString();
  const set = {
    filterBranch: compiled.branch,
    filterTree: compiled.tree,
    isTimeRelative: compiled.isTimeRelative,
    filtersChangedAtMs: changedAtMs,
    filtersUpdatedAt: at,
    updatedAt: at,
    updatedById: String(actor.userId),
    processingStatus: 'PROCESSING',
  };
  const updated: StoredList = { ...list, ...set, listVersion: list.listVersion + 1 };
  const references = referenceChanges(actor.hubId, list, listsNamedBy(list), listsNamedByFilters(compiled));
  let outcome: Awaited<ReturnType<typeof refilterList>>;
  try {
    outcome = await refilterList(
      actor.hubId,
      list,
      set,
      {
        objectTypeId: list.objectTypeId,
        writes: [
          dynamicListPut(actor.hubId, dynamicEntryOf(updated, compiled, changedAtMs)),
          ...dynamicListsChanged(keyedTypeOfList(list.objectTypeId), actor.hubId),
        ],
      },
      [...references.adds, ...references.removes],
    );
    if (outcome === 'refiltered') await startEvaluation(actor.hubId, updated, changedAtMs);
  } finally {
    // Marked PROCESSING, they are evaluated whatever came of the refilter (against the filters it left).
    await startEvaluations(actor.hubId, dependents);
  }
  if (outcome === 'named-list-gone') throw namedListGone();
  if (outcome === 'changed') throw changedMeanwhile();
  return (await withCounters(actor.hubId, [updated], { includeFilters: true }))[0] as PublicList;
}

export async function deleteAccountList(actor: ListActor, listId: string): Promise<void> {
  const list = await withLiveReferences(actor.hubId, await requireActiveList(actor.hubId, listId, { purgeGone: true }));
  requireUnreferenced(list);
  const dynamic = dynamicRemovalOf(actor.hubId, list);
  const at = nowIso();
  const folderWrite = folderListsWrite(actor.hubId, {
    listId,
    from: String(list.listFolderId),
    to: '0',
    at,
  });
  const outcome = await markListDeleted(actor.hubId, list, listNameDigest(list.name), at, { dynamic, folderWrite });
  if (outcome === 'changed') {
    // A list that another list came to name meanwhile answers why it stays.
    const current = await findList(actor.hubId, listId);
    if (current) requireUnreferenced(await withLiveReferences(actor.hubId, current));
    throw changedMeanwhile();
  }
  if (dynamic) forgetDynamicLists(actor.hubId, list.objectTypeId);
  await purgeOldestGoneList(actor.hubId);
}

/** A restored DYNAMIC list is evaluated again (its members may have changed while it was deleted). */
export async function restoreAccountList(actor: ListActor, listId: string): Promise<void> {
  const list = /^[0-9]{1,12}$/.test(listId) ? await findList(actor.hubId, listId) : undefined;
  await purgeIfGone(actor.hubId, list);
  if (!list || list.deletedAt === undefined || isGone(list))
    throw new NotFoundError(`No deleted list ${listId} can be restored`, { context: { listId: [listId] } });
  const named = list.processingType === 'DYNAMIC' ? listsNamedBy(list) : [];
  await requireNamedForRestore(actor.hubId, list, named);
  const changedAtMs = Math.max(nowMs(), (list.filtersChangedAtMs ?? 0) + 1);
  const dynamic =
    list.processingType === 'DYNAMIC'
      ? {
          objectTypeId: list.objectTypeId,
          writes: [
            dynamicListPut(actor.hubId, processingEntryOf(list, changedAtMs)),
            ...dynamicListsChanged(keyedTypeOfList(list.objectTypeId), actor.hubId),
          ],
          max: listLimits.maxDynamicListsPerType,
          set: { filtersChangedAtMs: changedAtMs, processingStatus: 'PROCESSING' },
        }
      : undefined;
  // Back into its folder, or into the root when the folder was deleted meanwhile.
  const isFolderKept =
    list.listFolderId !== 0 && (await readFolderTree(actor.hubId)).folders.has(String(list.listFolderId));
  const folder = isFolderKept
    ? { write: folderListsWrite(actor.hubId, { listId, from: '0', to: String(list.listFolderId), at: nowIso() }) }
    : { listFolderId: 0 };
  const outcome = await restoreDeletedList(
    actor.hubId,
    list,
    listNameDigest(list.name),
    listLimits.maxListsPerAccount,
    {
      dynamic,
      folder,
      references: named.map((namedId) => referenceAdd(actor.hubId, namedId, list.listId)),
    },
  );
  if (outcome === 'named-list-gone') await requireNamedForRestore(actor.hubId, list, named);
  if (outcome === 'named-list-gone') throw changedMeanwhile();
  if (outcome === 'name-taken') throw nameTaken(list.name);
  if (outcome === 'too-many') throw tooManyLists();
  if (outcome === 'too-many-dynamic') throw tooManyDynamic(list.objectTypeId);
  if (outcome === 'changed') throw changedMeanwhile();
  if (dynamic) await startEvaluation(actor.hubId, list, changedAtMs);
}

/** A DYNAMIC list comes back only when the lists its IN_LIST and ASSOCIATION filters name are active: else 400 naming the first that is not. */
async function requireNamedForRestore(hubId: number, list: StoredList, named: readonly string[]): Promise<void> {
  if (named.length === 0) return;
  const found = new Map((await findLists(hubId, named)).map((entry) => [entry.listId, entry]));
  const missing = named.find((id) => {
    const entry = found.get(id);
    return !entry || entry.deletedAt !== undefined;
  });
  if (missing !== undefined)
    throw new ValidationError(
      `List ${list.listId}'s filters name list ${missing}, which is deleted: restore list ${missing} first`,
      { context: { listId: [missing] } },
    );
}

/**
 * Before a list's filters change: every active DYNAMIC list that names it in IN_LIST or ASSOCIATION filters,
 * directly or through other lists, goes back to PROCESSING (its evaluation waits for the lists it
 * names to complete, list-evaluation.ts). At most maxDynamicListsPerType lists, one transaction each.
 * Answers them as marked, for the caller to start their evaluations once its own change is written.
 */
async function markDependentsProcessing(hubId: number, list: StoredList): Promise<StoredList[]> {
  const marked: StoredList[] = [];
  const seen = new Set<string>([list.listId]);
  let level = referencesOf(list);
  for (let depth = 0; level.length > 0 && depth <= listLimits.maxDynamicListsPerType; depth += 1) {
    const next: string[] = [];
    for (const dependent of await findLists(hubId, level)) {
      if (seen.has(dependent.listId)) continue;
      seen.add(dependent.listId);
      if (dependent.deletedAt !== undefined || dependent.processingType !== 'DYNAMIC') continue;
      const changedAtMs = Math.max(nowMs(), (dependent.filtersChangedAtMs ?? 0) + 1);
      const restarted: StoredList = { ...dependent, processingStatus: 'PROCESSING', filtersChangedAtMs: changedAtMs };
      const outcome = await restartListEvaluation(
        hubId,
        dependent,
        { processingStatus: 'PROCESSING', filtersChangedAtMs: changedAtMs },
        {
          objectTypeId: dependent.objectTypeId,
          writes: [
            dynamicListPut(hubId, processingEntryOf(dependent, changedAtMs)),
            ...dynamicListsChanged(keyedTypeOfList(dependent.objectTypeId), hubId),
          ],
        },
      );
      if (outcome === 'changed') {
        await startEvaluations(hubId, marked);
        throw changedMeanwhile();
      }
      marked.push(restarted);
      next.push(...referencesOf(dependent));
    }
    level = next;
  }
  return marked;
}
