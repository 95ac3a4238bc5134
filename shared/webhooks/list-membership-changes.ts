import { reverseMembershipOf } from '../db/lists';
import type { ChangeRecord } from './record-changes';

/** A record joining or leaving a list: what the webhooks journal's LIST_MEMBERSHIP subscriptions are about. */
export interface ListMembershipChange {
  hubId: number;
  listId: string;
  objectTypeId: string;
  recordId: string;
  action: 'ADDED_TO_LIST' | 'REMOVED_FROM_LIST';
  /** Epoch ms: the join time for ADDED_TO_LIST; for REMOVED_FROM_LIST the stream's time of the removal (see below). */
  occurredAt: number;
  /** The stream record's id: the same when the stream hands the record out again, so a consumer can drop a repeat. */
  streamRecordId: string;
}

/**
 * The membership change one stream record stands for. A membership is three items written and
 * removed in one transaction (shared/db/lists.ts membershipPuts); its reverse item
 * (`LIST_OF#<typeId>#<recordId>#<listId>`) alone is read here: it names the account, type, record
 * and list in its key and holds the join time, and it lives in the account's partition, so its
 * stream records keep their order with the record changes of the same account. The member and
 * join-order items and the size counters give nothing, nor does a MODIFY (a put over an existing
 * membership: it neither begins nor ends one).
 *
 * An insert is ADDED_TO_LIST at its join time (a merged record's carried membership keeps the
 * primary's join time). A removal writes no time of its own: it is REMOVED_FROM_LIST at the stream's
 * time of the change (whole seconds, as DynamoDB Streams rounds it down), and never before the join.
 */
export function listMembershipChangeOf(record: ChangeRecord): ListMembershipChange | undefined {
  if (record.eventName === 'INSERT' && !record.oldImage) {
    const membership = reverseMembershipOf(record.newImage);
    if (!membership) return undefined;
    const { joinedAtMs, ...identity } = membership;
    return { ...identity, action: 'ADDED_TO_LIST', occurredAt: joinedAtMs, streamRecordId: record.recordId };
  }
  if (record.eventName === 'REMOVE' && !record.newImage) {
    const membership = reverseMembershipOf(record.oldImage);
    if (!membership) return undefined;
    const { joinedAtMs, ...identity } = membership;
    return {
      ...identity,
      action: 'REMOVED_FROM_LIST',
      occurredAt: Math.max(record.approximateAtMs, joinedAtMs),
      streamRecordId: record.recordId,
    };
  }
  return undefined;
}

/** The membership changes of a stream batch, in stream order. */
export function listMembershipChangesOf(records: readonly ChangeRecord[]): ListMembershipChange[] {
  return records.flatMap((record) => {
    const change = listMembershipChangeOf(record);
    return change ? [change] : [];
  });
}
