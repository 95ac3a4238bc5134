import { nowMs } from '../base/clock';
import { ServiceUnavailableError, ValidationError } from '../base/errors';
import {
  findMemberships,
  itemsPerMembership,
  membershipPage,
  writeMembershipChange,
  type Membership,
  type StoredList,
} from '../db/lists';
import { mapConcurrently } from '../base/map-concurrently';
import { maxTransactionItems, type RoleWrite } from '../db/core';
import { listSizeUpdate, sumSizeDeltas, type ListSizeDelta } from '../db/dynamic-lists';
import type { KeyedType } from '../db/keys';
import { recordCountWrites } from '../db/order-index';
import { findExistingRecords, recordVersionCheck } from '../db/records';
import { readProjectedRecords } from '../db/search-projection';
import { dynamicListsOf, forgetDynamicLists, planListWrites, sizeShardOf } from './dynamic-lists';
import { listLimits } from './list-limits';
import { keyedTypeOfList } from './list-types';
import { countedLists } from './list-view';
import { listNotFound, requireActiveList } from './manage-lists';

/** HubSpot's answer to a membership change (its field name `recordsIdsAdded` is spelled as HubSpot spells it). */
export interface MembershipChangeAnswer {
  recordsIdsAdded: string[];
  recordIdsRemoved: string[];
  recordIdsMissing: string[];
}

/** Memberships one transaction changes: three items each, beside the list's size and the type's lists token (one item each). */
export const membershipsPerTransaction = Math.floor((maxTransactionItems - 2) / itemsPerMembership);

/** Times a chunk whose memberships changed under it (a concurrent change) is read and sent again. */
const staleAttempts = 3;

function requireMemberChanges(list: StoredList): void {
  if (list.processingType !== 'MANUAL' && list.processingType !== 'SNAPSHOT')
    throw new ValidationError(
      `List ${list.listId} is ${list.processingType}: only MANUAL and SNAPSHOT lists take membership changes`,
      {
        context: { processingType: [list.processingType] },
      },
    );
}

function requireIdCount(count: number, field: string): void {
  if (count > listLimits.maxRecordIdsPerCall)
    throw new ValidationError(
      `A membership change names at most ${listLimits.maxRecordIdsPerCall} record ids, not ${count}`,
      {
        context: { [field]: [String(count)] },
      },
    );
}

const isRecordId = (id: string): boolean => /^[0-9]{1,30}$/.test(id);

/**
 * Adds and removes records of the list's type: every id is read first (which records exist, which
 * are members), then the changes go in transactions of `membershipsPerTransaction` memberships, each
 * with the list's size. Ids that name no active record of the type (and are not members, for a
 * removal) are missing; ids already members (added) or not members (removed) change nothing.
 */
export async function changeMemberships(
  hubId: number,
  listId: string,
  request: { add: readonly string[]; remove: readonly string[] },
): Promise<MembershipChangeAnswer> {
  const add = [...new Set(request.add)];
  const remove = [...new Set(request.remove)];
  requireIdCount(add.length + remove.length, add.length > 0 ? 'recordIdsToAdd' : 'recordIdsToRemove');
  const removing = new Set(remove);
  const both = add.filter((id) => removing.has(id));
  if (both.length > 0)
    throw new ValidationError('A record id is both added and removed', {
      context: { recordIdsToAdd: both.slice(0, 10) },
    });
  const list = await requireActiveList(hubId, listId, { settleConversion: true });
  requireMemberChanges(list);
  const type = keyedTypeOfList(list.objectTypeId);
  const answer: MembershipChangeAnswer = { recordsIdsAdded: [], recordIdsRemoved: [], recordIdsMissing: [] };
  const wellFormed = (ids: string[]) => {
    for (const id of ids) if (!isRecordId(id)) answer.recordIdsMissing.push(id);
    return ids.filter(isRecordId);
  };
  const addIds = wellFormed(add);
  const removeIds = wellFormed(remove);
  const members = await findMemberships(hubId, listId, [...addIds, ...removeIds]);
  const toCheck = [...addIds.filter((id) => !members.has(id)), ...removeIds.filter((id) => !members.has(id))];
  const existing = await findExistingRecords(
    hubId,
    toCheck.map((id) => ({ type, id })),
  );
  const exists = (id: string) => existing.has(`${type.id}/${id}`);
  const adds = addIds.filter((id) => !members.has(id) && exists(id));
  const removes = removeIds.filter((id) => members.has(id));
  for (const id of toCheck) if (!exists(id)) answer.recordIdsMissing.push(id);
  await writeChanges(hubId, list, adds, removes, members);
  answer.recordsIdsAdded = adds;
  answer.recordIdsRemoved = removes;
  return answer;
}

interface Change {
  recordId: string;
  isAdd: boolean;
}

/** What a chunk's writing came to: done, the list deleted, or the changes still to write (read again first). */
type ChunkOutcome = 'written' | 'gone' | { pending: Change[] };

/**
 * Sends the changes chunk by chunk; a chunk that met a concurrent change is read again and sent
 * what still applies (at most `staleAttempts` times, then 503 "retry").
 */
async function writeChanges(
  hubId: number,
  list: StoredList,
  adds: readonly string[],
  removes: readonly string[],
  members: ReadonlyMap<string, number>,
): Promise<void> {
  const changes: Change[] = [
    ...adds.map((recordId) => ({ recordId, isAdd: true })),
    ...removes.map((recordId) => ({ recordId, isAdd: false })),
  ];
  for (let start = 0; start < changes.length; start += membershipsPerTransaction) {
    let chunk = changes.slice(start, start + membershipsPerTransaction);
    let known: ReadonlyMap<string, number> = members;
    for (let attempt = 1; ; attempt += 1) {
      const outcome = await writeChunk(hubId, list, chunk, known);
      if (outcome === 'written') break;
      if (outcome === 'gone') throw listNotFound(list.listId);
      if (attempt >= staleAttempts)
        throw new ServiceUnavailableError('The list changed while this request ran. Retry the request.', {
          headers: { 'retry-after': '1' },
        });
      known = await findMemberships(
        hubId,
        list.listId,
        outcome.pending.map((change) => change.recordId),
      );
      chunk = outcome.pending.filter((change) => change.isAdd !== known.has(change.recordId));
      if (chunk.length === 0) break;
    }
  }
}

/** The items a chunk's transaction keeps for the list's item, the lists token and the size counters of its DYNAMIC lists. */
const reservedItems = 2 + listLimits.maxDynamicListsPerType;

/**
 * Writes one chunk of changes. Every transaction checks the type's DYNAMIC lists token (a DYNAMIC
 * list made meanwhile, which may name this list, fails it). When DYNAMIC lists name this list in
 * IN_LIST filters, each record is evaluated for them with its stored values and its new membership
 * (dynamic-lists.ts planListWrites), on the condition of its version, and the chunk goes in as many
 * transactions as those writes need.
 */
async function writeChunk(
  hubId: number,
  list: StoredList,
  chunk: readonly Change[],
  known: ReadonlyMap<string, number>,
): Promise<ChunkOutcome> {
  const type = keyedTypeOfList(list.objectTypeId);
  const view = await dynamicListsOf(hubId, type.id);
  const joinedAtMs = nowMs();
  const at = new Date(joinedAtMs).toISOString();
  const firstId = chunk[0]?.recordId ?? '0';
  const token = recordCountWrites(type, hubId, [{ shard: sizeShardOf(firstId), delta: 0 }], undefined, {
    token: view.token,
  }).map((write) => ({ role: 'token' as const, write }));
  const isNamed = view.entries.some((entry) => (entry.listIds ?? []).includes(list.listId));
  const plans = isNamed
    ? await dependentPlans(type, hubId, list, chunk)
    : chunk.map((change) => ({ change, writes: [], sizes: [] }));
  // Packed into transactions in order: each takes the plans that fit beside its reserved items. A
  // plan that fits in none refuses the chunk before any of it is written.
  const budget = maxTransactionItems - (isNamed ? reservedItems : 2);
  if (plans.some((plan) => itemsPerMembership + plan.writes.length > budget)) throw tooManyDependentWrites(list);
  let index = 0;
  while (index < plans.length) {
    const group: DependentPlan[] = [];
    let items = 0;
    while (index < plans.length) {
      const plan = plans[index] as DependentPlan;
      const cost = itemsPerMembership + plan.writes.length;
      if (group.length > 0 && items + cost > budget) break;
      group.push(plan);
      items += cost;
      index += 1;
    }
    const shard = sizeShardOf(group[0]?.change.recordId ?? firstId);
    const sizes = sumSizeDeltas(group.flatMap((plan) => plan.sizes)).map((delta) => ({
      role: 'member' as const,
      write: listSizeUpdate(hubId, delta, shard, at),
    }));
    const outcome = await writeMembershipChange(
      hubId,
      list,
      {
        adds: group.filter((plan) => plan.change.isAdd).map((plan) => ({ recordId: plan.change.recordId, joinedAtMs })),
        removes: group
          .filter((plan) => !plan.change.isAdd)
          .map((plan) => ({ recordId: plan.change.recordId, joinedAtMs: known.get(plan.change.recordId) ?? 0 })),
        at,
      },
      [...token, ...group.flatMap((plan) => plan.writes), ...sizes],
    );
    if (outcome === 'written') continue;
    if (outcome === 'gone') return 'gone';
    if (outcome === 'stale-lists') forgetDynamicLists(hubId, type.id);
    return { pending: plans.slice(index - group.length).map((plan) => plan.change) };
  }
  return 'written';
}

/** One record's change with what it writes for the DYNAMIC lists that depend on it. */
interface DependentPlan {
  change: Change;
  writes: RoleWrite<'member'>[];
  sizes: ListSizeDelta[];
}

const tooManyDependentWrites = (list: StoredList) =>
  new ValidationError(
    `The DYNAMIC lists that name list ${list.listId} in IN_LIST filters need more writes per record than one transaction holds: name fewer lists in their filters`,
    { context: { listId: [list.listId] } },
  );

/** Each change evaluated for the DYNAMIC lists that depend on the list: the record read once (its projection), its version checked. */
async function dependentPlans(
  type: KeyedType,
  hubId: number,
  list: StoredList,
  chunk: readonly Change[],
): Promise<DependentPlan[]> {
  const records = await readProjectedRecords(
    type,
    hubId,
    chunk.map((change) => change.recordId),
  );
  return mapConcurrently(chunk, 10, async (change): Promise<DependentPlan> => {
    const record = records.get(change.recordId);
    // A record archived meanwhile leaves every list on its own.
    if (!record) return { change, writes: [], sizes: [] };
    const plan = await planListWrites(type, hubId, {
      recordId: change.recordId,
      forms: record.forms,
      previousForms: record.forms,
      isNew: false,
      changedMemberships: new Map([[list.listId, change.isAdd]]),
    });
    const version = recordVersionCheck(type, hubId, change.recordId, record.version);
    return {
      change,
      writes: [version, ...plan.items].map((write) => ({ role: 'member' as const, write })),
      sizes: plan.sizes,
    };
  });
}

/** Every member of a list (record ids in id order), when it has at most `max`; else 400 naming `field`. */
async function allMembers(list: StoredList, hubId: number, max: number, field: string): Promise<Membership[]> {
  const tooMany = (size: number | string) =>
    new ValidationError(`List ${list.listId} has ${size} members: this call takes lists of at most ${max}`, {
      context: { [field]: [list.listId] },
    });
  // A DYNAMIC list's size is its item's and its size counters'.
  const [counted] = await countedLists(hubId, [list]);
  if ((counted?.size ?? list.size) > max) throw tooMany(counted?.size ?? list.size);
  const members: Membership[] = [];
  let after: string | undefined;
  for (let page = 0; page <= Math.ceil(max / listLimits.maxPageSize); page += 1) {
    const found = await membershipPage(hubId, list.listId, { order: 'id', after, limit: listLimits.maxPageSize });
    members.push(...found.memberships);
    if (members.length > max) break;
    if (!found.hasMore) return members;
    after = found.memberships.at(-1)?.recordId;
  }
  throw tooMany(`over ${max}`);
}

/** Adds every member of the source list (same type, another list, at most maxMembersCopiedOrCleared members). */
export async function addMembershipsFrom(hubId: number, listId: string, sourceListId: string): Promise<void> {
  if (listId === sourceListId)
    throw new ValidationError('The source list and the list are the same', {
      context: { sourceListId: [sourceListId] },
    });
  const list = await requireActiveList(hubId, listId, { settleConversion: true });
  requireMemberChanges(list);
  const source = await requireActiveList(hubId, sourceListId);
  if (source.objectTypeId !== list.objectTypeId)
    throw new ValidationError(
      `List ${sourceListId} holds ${source.objectTypeId} records, list ${listId} ${list.objectTypeId}`,
      {
        context: { sourceListId: [sourceListId] },
      },
    );
  const sourceMembers = await allMembers(source, hubId, listLimits.maxMembersCopiedOrCleared, 'sourceListId');
  const ids = sourceMembers.map((member) => member.recordId);
  const members = await findMemberships(hubId, listId, ids);
  await writeChanges(
    hubId,
    list,
    ids.filter((id) => !members.has(id)),
    [],
    members,
  );
}

/** Removes every member of a MANUAL or SNAPSHOT list of at most maxMembersCopiedOrCleared members. */
export async function clearMemberships(hubId: number, listId: string): Promise<void> {
  const list = await requireActiveList(hubId, listId, { settleConversion: true });
  requireMemberChanges(list);
  const members = await allMembers(list, hubId, listLimits.maxMembersCopiedOrCleared, 'listId');
  const known = new Map(members.map((member) => [member.recordId, member.joinedAtMs]));
  await writeChanges(hubId, list, [], [...known.keys()], known);
}
