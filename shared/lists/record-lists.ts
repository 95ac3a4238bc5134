import { nowMs } from '../base/clock';
import { mapConcurrently } from '../base/map-concurrently';
import { tableName } from '../db/client';
import { maxTransactionItems, transact, type RoleWrite, type TransactItem } from '../db/core';
import { listSizeUpdate, type ListSizeDelta } from '../db/dynamic-lists';
import { listKey, searchShardOf, type KeyedType } from '../db/keys';
import { recordCountWrites } from '../db/order-index';
import {
  itemsPerMembership,
  membershipDeletes,
  membershipPuts,
  recordMemberships,
  type RecordMembership,
} from '../db/lists';
import { recordVersionCheck, type CrmRecord } from '../db/records';
import { forgetDynamicLists, planListWrites, type ListedWrite, type RecordListWrites } from './dynamic-lists';

/** Memberships one transaction removes: three items each and one size write each. */
const leavesPerTransaction = Math.floor(maxTransactionItems / (itemsPerMembership + 1));

/** A membership's size write: a DYNAMIC list's counter (record writes move those), any other list's item. */
function sizeWrite(hubId: number, recordId: string, membership: RecordMembership, atIso: string): TransactItem {
  const delta: ListSizeDelta = { listId: membership.listId, added: 0, removed: 1 };
  if (membership.processingType === 'DYNAMIC') return listSizeUpdate(hubId, delta, searchShardOf(recordId), atIso);
  return {
    Update: {
      TableName: tableName,
      Key: listKey(hubId, membership.listId),
      UpdateExpression: 'ADD #size :minus SET lastRecordRemovedAt = :at',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#size': 'size' },
      ExpressionAttributeValues: { ':minus': -1, ':at': atIso },
    },
  };
}

/**
 * A record archived or deleted leaves every list it is in, right after the write that removed it
 * and before that write answers: its reverse items (one Query) name the lists, and each membership's
 * three items go with the list's size in transactions of `leavesPerTransaction`. A list whose item
 * is gone (purged) loses the membership without a size write.
 */
export async function leaveAllLists(
  type: KeyedType,
  hubId: number,
  recordId: string,
  known?: readonly RecordMembership[],
): Promise<void> {
  const memberships = known ?? (await recordMemberships(hubId, type.id, recordId));
  if (memberships.length === 0) return;
  const atIso = new Date(nowMs()).toISOString();
  const chunks: RecordMembership[][] = [];
  for (let start = 0; start < memberships.length; start += leavesPerTransaction)
    chunks.push(memberships.slice(start, start + leavesPerTransaction));
  await mapConcurrently(chunks, 4, async (chunk) => {
    const writes: RoleWrite<'member' | 'size'>[] = [];
    for (const membership of chunk) {
      const list = { listId: membership.listId, objectTypeId: type.id };
      for (const write of membershipDeletes(hubId, list, { recordId, joinedAtMs: membership.joinedAtMs })) {
        // Unconditional: a membership another request removed meanwhile is simply gone.
        writes.push({
          role: 'member',
          write: { Delete: { ...write.Delete, ConditionExpression: undefined } } as TransactItem,
        });
      }
      writes.push({ role: 'size', write: sizeWrite(hubId, recordId, membership, atIso) });
    }
    const outcome = await transact(writes);
    if (outcome.committed) return;
    // A list item gone: each membership on its own, its size write only where the list still is.
    for (const membership of chunk) {
      const list = { listId: membership.listId, objectTypeId: type.id };
      const deletes = membershipDeletes(hubId, list, { recordId, joinedAtMs: membership.joinedAtMs }).map((write) => ({
        role: 'member' as const,
        write: { Delete: { ...write.Delete, ConditionExpression: undefined } } as TransactItem,
      }));
      const single = await transact([
        ...deletes,
        { role: 'size' as const, write: sizeWrite(hubId, recordId, membership, atIso) },
      ]);
      if (!single.committed) {
        if (!single.reasons.some((reason) => reason.role === 'size' && reason.code === 'ConditionalCheckFailed'))
          throw single.error;
        const alone = await transact(deletes);
        if (!alone.committed) throw alone.error;
      }
    }
  });
}

/**
 * Writes a record's memberships of DYNAMIC lists outside its own write, on the condition that the
 * record is still at the version these values are of (a later write evaluates its own values).
 * 'changed' when it is not.
 */
async function writeListPlan(
  type: KeyedType,
  hubId: number,
  record: CrmRecord,
  plan: RecordListWrites,
): Promise<'written' | 'changed' | 'stale'> {
  const atIso = new Date(nowMs()).toISOString();
  const shard = searchShardOf(record.id);
  const writes: RoleWrite<'record' | 'list' | 'token'>[] = [
    {
      role: 'record',
      write: recordVersionCheck(type, hubId, record.id, record.version),
    },
    ...plan.items.map((write) => ({ role: 'list' as const, write })),
    ...plan.sizes.map((delta) => ({ role: 'list' as const, write: listSizeUpdate(hubId, delta, shard, atIso) })),
    ...recordCountWrites(type, hubId, [{ shard, delta: 0 }], undefined, { token: plan.token }).map((write) => ({
      role: 'token' as const,
      write,
    })),
  ];
  const outcome = await transact(writes);
  if (outcome.committed) return 'written';
  if (outcome.reasons.some((reason) => reason.role === 'record' && reason.code === 'ConditionalCheckFailed'))
    return 'changed';
  if (outcome.reasons.some((reason) => reason.role === 'token' && reason.code === 'ConditionalCheckFailed')) {
    forgetDynamicLists(hubId, type.id);
    return 'stale';
  }
  if (outcome.reasons.some((reason) => reason.role === 'list' && reason.code === 'ConditionalCheckFailed'))
    return 'stale';
  throw outcome.error;
}

/**
 * A record's memberships of every DYNAMIC list of its type made right from its stored values (the
 * survivor of a merge, whose values the merge changed outside the record write path): the actual
 * memberships read and the changes written on the condition of the record's version; a record
 * changed meanwhile was evaluated by the write that changed it.
 */
export async function reconcileRecordLists(
  type: KeyedType,
  hubId: number,
  record: CrmRecord,
  forms: ListedWrite['forms'],
): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const plan = await planListWrites(type, hubId, {
      recordId: record.id,
      forms,
      previousForms: undefined,
      isNew: false,
      readActual: true,
      associations: record.associations,
    });
    if (plan.items.length === 0 && plan.sizes.length === 0) return;
    if ((await writeListPlan(type, hubId, record, plan)) !== 'stale') return;
  }
}

/**
 * A merge's lists: the merged record (a new id) takes the primary record's MANUAL and SNAPSHOT
 * memberships, with their join times, and its DYNAMIC lists' from its merged values; then both
 * records merged away leave every list (the primary's memberships read once for both). Runs after
 * the merge is written and before it answers.
 */
export async function carryListsOnMerge(
  type: KeyedType,
  hubId: number,
  primaryId: string,
  removedIds: readonly string[],
  merged: CrmRecord,
  mergedForms: ListedWrite['forms'],
): Promise<void> {
  const primaryMemberships = await recordMemberships(hubId, type.id, primaryId);
  const kept = primaryMemberships.filter((membership) => membership.processingType !== 'DYNAMIC');
  const atIso = new Date(nowMs()).toISOString();
  await mapConcurrently(kept, 4, async (membership) => {
    const list = { listId: membership.listId, objectTypeId: type.id, processingType: 'MANUAL' as const };
    const puts = membershipPuts(hubId, list, { recordId: merged.id, joinedAtMs: membership.joinedAtMs }).map(
      (write) => ({ role: 'member' as const, write }),
    );
    const size: RoleWrite<'member' | 'size'> = {
      role: 'size',
      write: {
        Update: {
          TableName: tableName,
          Key: listKey(hubId, membership.listId),
          UpdateExpression: 'ADD #size :one SET lastRecordAddedAt = :at',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#size': 'size' },
          ExpressionAttributeValues: { ':one': 1, ':at': atIso },
        },
      },
    };
    const outcome = await transact([...puts, size]);
    // A membership the merged record has already, or a list gone for good: nothing to add.
    if (!outcome.committed && !outcome.reasons.some((reason) => reason.code === 'ConditionalCheckFailed'))
      throw outcome.error;
  });
  await reconcileRecordLists(type, hubId, merged, mergedForms);
  for (const id of removedIds) await leaveAllLists(type, hubId, id, id === primaryId ? primaryMemberships : undefined);
}
