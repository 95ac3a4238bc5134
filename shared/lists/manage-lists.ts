import { nowMs } from '../base/clock';
import { ConflictError, NotFoundError, ServiceUnavailableError, ValidationError } from '../base/errors';
import {
  allocateListId,
  findList,
  insertList,
  markListDeleted,
  renameList,
  restoreDeletedList,
  type StoredList,
} from '../db/lists';
import { listLimits } from './list-limits';
import { isGone, purgeIfGone, purgeOldestGoneList } from './list-lifetime';
import { requireListObjectType } from './list-types';
import { listNameDigest, publicListOf, type PublicList } from './list-view';

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

/** What this service evaluates: MANUAL lists only; DYNAMIC and SNAPSHOT need filter evaluation. */
function requireManual(processingType: string): 'MANUAL' {
  if (processingType === 'MANUAL') return 'MANUAL';
  if (processingType === 'DYNAMIC' || processingType === 'SNAPSHOT')
    throw new ValidationError(
      `processingType ${processingType} is not supported: this service does not evaluate list filters yet; create a MANUAL list`,
      { context: { processingType: [processingType] } },
    );
  throw new ValidationError(`processingType must be MANUAL, DYNAMIC or SNAPSHOT, not ${processingType}`, {
    context: { processingType: [processingType] },
  });
}

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
  const processingType = requireManual(input.processingType);
  if (input.filterBranch !== undefined)
    throw new ValidationError('A MANUAL list has no filters: leave filterBranch out', {
      context: { filterBranch: ['MANUAL'] },
    });
  const name = requireListName(input.name);
  await requireListObjectType(actor.hubId, input.objectTypeId, 'objectTypeId');
  const at = nowIso();
  const list: StoredList = {
    listId: await allocateListId(),
    name,
    objectTypeId: input.objectTypeId,
    processingType,
    processingStatus: 'COMPLETE',
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
  };
  const outcome = await insertList(actor.hubId, list, listNameDigest(name), listLimits.maxListsPerAccount);
  if (outcome === 'name-taken') throw nameTaken(name);
  if (outcome === 'too-many') throw tooManyLists();
  return publicListOf(list);
}

export const listNotFound = (listId: string) =>
  new NotFoundError(`List ${listId} does not exist`, { context: { listId: [listId] } });

/**
 * A list of the account that is not deleted, else 404 naming it. `purgeGone` (for callers that may
 * write): a list found deleted more than 90 days ago is purged a step (list-lifetime.ts) before the 404.
 */
export async function requireActiveList(
  hubId: number,
  listId: string,
  options: { purgeGone?: boolean } = {},
): Promise<StoredList> {
  const list = /^[0-9]{1,12}$/.test(listId) ? await findList(hubId, listId) : undefined;
  if (options.purgeGone) await purgeIfGone(hubId, list);
  if (!list || list.deletedAt !== undefined) throw listNotFound(listId);
  return list;
}

export async function renameAccountList(actor: ListActor, listId: string, rawName: string | undefined) {
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
  return publicListOf({
    ...list,
    name,
    listVersion: list.listVersion + 1,
    updatedAt,
    updatedById: String(actor.userId),
  });
}

/** Filters belong to DYNAMIC and SNAPSHOT lists, which this service does not make yet: every list here is MANUAL. */
export async function updateListFilters(actor: ListActor, listId: string): Promise<never> {
  const list = await requireActiveList(actor.hubId, listId);
  throw new ValidationError(
    `List ${listId} is a ${list.processingType} list: only DYNAMIC lists have filters to update`,
    { context: { processingType: [list.processingType] } },
  );
}

export async function deleteAccountList(actor: ListActor, listId: string): Promise<void> {
  const list = await requireActiveList(actor.hubId, listId, { purgeGone: true });
  const outcome = await markListDeleted(actor.hubId, list, listNameDigest(list.name), nowIso());
  if (outcome === 'changed') throw changedMeanwhile();
  await purgeOldestGoneList(actor.hubId);
}

export async function restoreAccountList(actor: ListActor, listId: string): Promise<void> {
  const list = /^[0-9]{1,12}$/.test(listId) ? await findList(actor.hubId, listId) : undefined;
  await purgeIfGone(actor.hubId, list);
  if (!list || list.deletedAt === undefined || isGone(list))
    throw new NotFoundError(`No deleted list ${listId} can be restored`, { context: { listId: [listId] } });
  const outcome = await restoreDeletedList(actor.hubId, list, listNameDigest(list.name), listLimits.maxListsPerAccount);
  if (outcome === 'name-taken') throw nameTaken(list.name);
  if (outcome === 'too-many') throw tooManyLists();
  if (outcome === 'changed') throw changedMeanwhile();
}
