import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mapConcurrently } from '../base/map-concurrently';
import { db, tableName } from './client';
import {
  batchDeleteAll,
  batchGetAll,
  conditionalWrite,
  ExpressionPlaceholders,
  putNew,
  queryPages,
  transact,
  type Item,
} from './core';
import { accountKey, webhookFlushKey, webhookPendingKey, webhookPendingPartition, webhookPendingPrefix } from './keys';

/**
 * The pending webhook batches of test accounts (the sandbox controls' flush,
 * shared/webhooks/account-flush.ts): one item per queued batch in the account's WEBHOOK_PENDING#
 * partition, beside the queue message that carries the same batch. Whoever delivers the batch (the
 * queue's deliverer or a flush) claims the item first with a conditional write, so it is attempted
 * once whoever comes first; the claim is a lease, so a claimer that died frees it. The batch is kept
 * as its JSON text (at most 200 KB, under the 400 KB item limit): this repository knows nothing of
 * its shape.
 */

/** What one attempt of a pending batch came to, as a flush counts it. */
export type PendingOutcome = 'delivered' | 'failed' | 'dropped';

/** A pending batch without its body: what a flush lists. */
export interface PendingBatch {
  hubId: number;
  pendingId: string;
  appId: number;
  attemptNumber: number;
  eventCount: number;
  /** When it was queued, and when its queue message is due (epoch ms). */
  queuedAtMs: number;
  dueAtMs: number;
  /** Set while a deliverer or a flush holds it: who, and until when (epoch ms). */
  claimedBy?: string;
  claimedUntilMs?: number;
  /** Set when it was attempted while a flush of the account ran: the attempt's outcome, and when it ended. */
  outcome?: PendingOutcome;
  doneAtMs?: number;
}

/** A pending batch with its body, as a claim returns it. */
export interface PendingBatchWithBody extends PendingBatch {
  batchJson: string;
}

/** A batch as it is recorded when queued: nobody holds it yet. */
export type NewPendingBatch = Omit<PendingBatchWithBody, 'claimedBy' | 'claimedUntilMs' | 'outcome' | 'doneAtMs'>;

/** A claim held on a pending batch: what releasing or finishing it must name. */
export interface PendingClaim {
  hubId: number;
  pendingId: string;
  claimedBy: string;
  claimedUntilMs: number;
}

/**
 * A pending item outlives its due time by this long at most (DynamoDB TTL): past that its queue
 * message is long gone (an orphan of a failed send), and nothing would ever claim it.
 */
const pendingRetentionSeconds = 24 * 3600;
/** An outcome left for a flush is read within the flush (a minute at most); the rest expire after this. */
const outcomeRetentionSeconds = 3600;

/** Every attribute of the item but its body and bookkeeping, for listing. */
const listedAttributes = [
  'hubId',
  'pendingId',
  'appId',
  'attemptNumber',
  'eventCount',
  'queuedAtMs',
  'dueAtMs',
  'claimedBy',
  'claimedUntilMs',
  'outcome',
  'doneAtMs',
] as const;

const numberOf = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

function pendingBatchOf(item: Item): PendingBatch {
  const outcome = item.outcome;
  return {
    hubId: Number(item.hubId),
    pendingId: String(item.pendingId),
    appId: Number(item.appId),
    attemptNumber: Number(item.attemptNumber),
    eventCount: Number(item.eventCount),
    queuedAtMs: Number(item.queuedAtMs),
    dueAtMs: Number(item.dueAtMs),
    ...(typeof item.claimedBy === 'string' ? { claimedBy: item.claimedBy } : {}),
    ...(numberOf(item.claimedUntilMs) === undefined ? {} : { claimedUntilMs: numberOf(item.claimedUntilMs) }),
    ...(outcome === 'delivered' || outcome === 'failed' || outcome === 'dropped' ? { outcome } : {}),
    ...(numberOf(item.doneAtMs) === undefined ? {} : { doneAtMs: numberOf(item.doneAtMs) }),
  };
}

/** The item of a batch recorded as pending: it expires a day after its queue message is due. */
const pendingItemOf = (batch: NewPendingBatch): Item => ({
  ...webhookPendingKey(batch.hubId, batch.pendingId),
  ...batch,
  ttl: Math.floor(batch.dueAtMs / 1000) + pendingRetentionSeconds,
});

/**
 * Records batches as pending, each unless its item exists: ids follow from the batch, so a batch
 * queued again finds the item of its first try and leaves it as it is (claimed, or already attempted).
 */
export async function insertPendingBatches(batches: readonly NewPendingBatch[]): Promise<void> {
  await mapConcurrently(batches, 10, (batch) => putNew(pendingItemOf(batch)));
}

/**
 * Records batches as pending as insertPendingBatches does (a stream batch handed out again, after
 * its queue send failed, finds the items of its first try). A batch of an account in `resetStarts`
 * (the accounts' data starts the events were filtered by, shared/webhooks/reset-filter.ts) is
 * recorded on condition, in the same transaction, that its account item still exists with that
 * start: an account reset (or deleted) since the filter read it gets nothing, since its events were
 * made before that reset. Returns the ids of the batches so dropped.
 */
export async function insertPendingBatchesSinceStarts(
  batches: readonly NewPendingBatch[],
  resetStarts?: ReadonlyMap<number, number | null>,
): Promise<Set<string>> {
  const dropped = new Set<string>();
  await mapConcurrently(batches, 10, async (batch) => {
    const item = pendingItemOf(batch);
    const start = resetStarts?.get(batch.hubId);
    if (start === undefined) {
      await putNew(item);
      return;
    }
    const outcome = await transact([
      {
        role: 'batch',
        write: { Put: { TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
      },
      {
        role: 'account',
        write: {
          ConditionCheck: {
            TableName: tableName,
            Key: accountKey(batch.hubId),
            ...(start === null
              ? { ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(dataResetFromMs)' }
              : {
                  ConditionExpression: 'attribute_exists(pk) AND dataResetFromMs = :start',
                  ExpressionAttributeValues: { ':start': start },
                }),
          },
        },
      },
    ]);
    if (outcome.committed) return;
    if (outcome.reasons.some((reason) => reason.role === 'account')) dropped.add(batch.pendingId);
    else if (!outcome.reasons.every((reason) => reason.role === 'batch' && reason.code === 'ConditionalCheckFailed'))
      throw outcome.error;
  });
  return dropped;
}

/**
 * The account's pending batches without their bodies, in id order, at most `maxItems` (the rest
 * wait for the next call). Strongly consistent: a batch recorded before the call is among them.
 */
export async function listPendingBatches(hubId: number, maxItems: number): Promise<PendingBatch[]> {
  const placeholders = new ExpressionPlaceholders();
  const projection = listedAttributes.map((name) => placeholders.name(name)).join(', ');
  const found: PendingBatch[] = [];
  for await (const page of queryPages({
    pk: webhookPendingPartition(hubId),
    skPrefix: webhookPendingPrefix,
    projection,
    names: placeholders.names,
  })) {
    found.push(...page.map(pendingBatchOf));
    if (found.length >= maxItems) break;
  }
  return found.slice(0, maxItems);
}

/** The current state of some pending batches of an account, without bodies; gone ones are absent. */
export async function findPendingBatches(hubId: number, pendingIds: readonly string[]): Promise<PendingBatch[]> {
  if (pendingIds.length === 0) return [];
  const items = await batchGetAll(
    pendingIds.map((id) => webhookPendingKey(hubId, id)),
    { attributes: listedAttributes },
  );
  return items.map(pendingBatchOf);
}

/**
 * Claims a pending batch for one attempt: on condition that it exists, has not been attempted, and
 * nobody holds it (or the holder's lease ran out). The batch with its body, or undefined when it is
 * gone (delivered, or taken by someone else) or held.
 */
export async function claimPendingBatch(
  hubId: number,
  pendingId: string,
  claimedBy: string,
  nowMs: number,
  leaseMs: number,
): Promise<PendingBatchWithBody | undefined> {
  const outcome = await conditionalWrite(
    new UpdateCommand({
      TableName: tableName,
      Key: webhookPendingKey(hubId, pendingId),
      UpdateExpression: 'SET #by = :by, #until = :until',
      ConditionExpression:
        'attribute_exists(pk) AND attribute_not_exists(#outcome) AND (attribute_not_exists(#until) OR #until < :now)',
      ExpressionAttributeNames: { '#by': 'claimedBy', '#until': 'claimedUntilMs', '#outcome': 'outcome' },
      ExpressionAttributeValues: { ':by': claimedBy, ':until': nowMs + leaseMs, ':now': nowMs },
      ReturnValues: 'ALL_NEW',
    }),
  );
  if (!outcome.written || !outcome.attributes || typeof outcome.attributes.batchJson !== 'string') return undefined;
  return { ...pendingBatchOf(outcome.attributes), batchJson: outcome.attributes.batchJson };
}

export const claimOf = (batch: PendingBatch): PendingClaim | undefined =>
  batch.claimedBy === undefined || batch.claimedUntilMs === undefined
    ? undefined
    : {
        hubId: batch.hubId,
        pendingId: batch.pendingId,
        claimedBy: batch.claimedBy,
        claimedUntilMs: batch.claimedUntilMs,
      };

/** Gives a claim back without an attempt (the app's places were all taken): the batch is pending as before. */
export async function releasePendingBatch(claim: PendingClaim): Promise<void> {
  await conditionalWrite(
    new UpdateCommand({
      TableName: tableName,
      Key: webhookPendingKey(claim.hubId, claim.pendingId),
      UpdateExpression: 'REMOVE #by, #until',
      ConditionExpression: '#by = :by',
      ExpressionAttributeNames: { '#by': 'claimedBy', '#until': 'claimedUntilMs' },
      ExpressionAttributeValues: { ':by': claim.claimedBy },
    }),
  );
}

/** The condition of a write that ends a claim: the claim is still the caller's. */
const ownClaimOf = (claim: PendingClaim) => ({
  ConditionExpression: '#by = :by',
  ExpressionAttributeNames: { '#by': 'claimedBy' },
  ExpressionAttributeValues: { ':by': claim.claimedBy },
});

/**
 * Ends a claim after its attempt, where the caller counts the outcome itself (a flush): the batch
 * is no longer pending (a failed attempt's retry is a new pending batch). Nothing is written when
 * the claim was lost (its lease ran out and another claimer took the batch).
 */
export async function removePendingBatch(claim: PendingClaim): Promise<void> {
  await conditionalWrite(
    new DeleteCommand({
      TableName: tableName,
      Key: webhookPendingKey(claim.hubId, claim.pendingId),
      ...ownClaimOf(claim),
    }),
  );
}

/**
 * Ends a claim after its attempt, as removePendingBatch does, unless a flush of the account runs
 * now: the item then stays with the outcome instead, for that flush to count and remove. The delete
 * and the check that no flush runs are one transaction, and a flush announces itself before it
 * reads, so an attempt that ends after a flush began is never lost to it. Nothing is written when
 * the claim was lost.
 */
export async function finishPendingBatch(claim: PendingClaim, outcome: PendingOutcome, nowMs: number): Promise<void> {
  const key = webhookPendingKey(claim.hubId, claim.pendingId);
  const result = await transact<'batch' | 'flush'>([
    { role: 'batch', write: { Delete: { TableName: tableName, Key: key, ...ownClaimOf(claim) } } },
    {
      role: 'flush',
      write: {
        ConditionCheck: {
          TableName: tableName,
          Key: webhookFlushKey(claim.hubId),
          ConditionExpression: 'attribute_not_exists(#running) OR #running <= :zero OR #until < :now',
          ExpressionAttributeNames: { '#running': 'running', '#until': 'untilMs' },
          ExpressionAttributeValues: { ':zero': 0, ':now': nowMs },
        },
      },
    },
  ]);
  if (result.committed) return;
  const failed = result.reasons.filter((reason) => reason.code === 'ConditionalCheckFailed').map(({ role }) => role);
  if (failed.includes('batch')) return;
  if (!failed.includes('flush')) throw result.error;
  await conditionalWrite(
    new UpdateCommand({
      TableName: tableName,
      Key: key,
      UpdateExpression: 'SET #outcome = :outcome, #done = :now, #ttl = :ttl REMOVE #until',
      ConditionExpression: '#by = :by',
      ExpressionAttributeNames: {
        '#by': 'claimedBy',
        '#outcome': 'outcome',
        '#done': 'doneAtMs',
        '#ttl': 'ttl',
        '#until': 'claimedUntilMs',
      },
      ExpressionAttributeValues: {
        ':by': claim.claimedBy,
        ':outcome': outcome,
        ':now': nowMs,
        ':ttl': Math.floor(nowMs / 1000) + outcomeRetentionSeconds,
      },
    }),
  );
}

/** Removes pending items of an account (outcomes a flush has read). */
export async function deletePendingBatches(hubId: number, pendingIds: readonly string[]): Promise<void> {
  await batchDeleteAll(pendingIds.map((id) => webhookPendingKey(hubId, id)));
}

/**
 * A flush of the account begins: it counts among the running ones until `untilMs` at the latest,
 * so a flush that died stops counting by itself. Every flush gives the same bound from its start
 * (shared/webhooks/account-flush.ts), so the latest start sets the latest bound.
 */
export async function beginFlush(hubId: number, untilMs: number): Promise<void> {
  await db.send(
    new UpdateCommand({
      TableName: tableName,
      Key: webhookFlushKey(hubId),
      UpdateExpression: 'ADD #running :one SET #until = :until, #ttl = :ttl',
      ExpressionAttributeNames: { '#running': 'running', '#until': 'untilMs', '#ttl': 'ttl' },
      ExpressionAttributeValues: { ':one': 1, ':until': untilMs, ':ttl': Math.floor(untilMs / 1000) + 3600 },
    }),
  );
}

/** A flush of the account ended. */
export async function endFlush(hubId: number): Promise<void> {
  await conditionalWrite(
    new UpdateCommand({
      TableName: tableName,
      Key: webhookFlushKey(hubId),
      UpdateExpression: 'ADD #running :minusOne',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#running': 'running' },
      ExpressionAttributeValues: { ':minusOne': -1 },
    }),
  );
}
