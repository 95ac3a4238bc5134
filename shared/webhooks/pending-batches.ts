import { createHash } from 'node:crypto';
import { config } from '../base/config';
import { findAccounts } from '../db/accounts';
import { insertPendingBatches, insertPendingBatchesSinceStarts, type NewPendingBatch } from '../db/webhook-pending';
import type { DeliveryBatch, DeliveryQueue } from './delivery-queue';

/**
 * Pending tracking of test accounts' webhook batches, for the sandbox controls' flush
 * (account-flush.ts). SQS hands out messages in no order and cannot be asked for one account's, so
 * a test account's batch is also recorded in the table when it is queued (shared/db/webhook-pending.ts),
 * and its message carries the item's id (`pendingId`): whoever delivers it first (the queue's
 * deliverer, or a flush) claims the item, and the other skips it. Other accounts' batches are
 * queued as before, with nothing written.
 */

/**
 * A claim is held at most this long: the delivery function's timeout (lib/webhook-pipeline.ts),
 * which no attempt outlives (the POST itself ends within 5 s). A claimer that died frees the batch
 * after it; the queue hands the message out again, or a flush takes it.
 */
export const pendingClaimLeaseMs = 30_000;

/**
 * The id of a batch's pending item: a hash of what makes the batch (app, account, attempt, event
 * ids; the event ids follow from the changes). A stream batch handed out again makes the same ids,
 * so its batches are recorded once, and a message queued twice is delivered once.
 */
export function pendingIdOf(batch: DeliveryBatch): string {
  const eventIds = batch.events.map((event) => String(event.eventId)).join(',');
  return createHash('sha256')
    .update(`${batch.appId}:${batch.portalId}:${batch.attemptNumber}:${eventIds}`)
    .digest('hex')
    .slice(0, 32);
}

/** Batches with the ids of their pending items, and those items. */
function trackedOf(
  batches: readonly DeliveryBatch[],
  delaySeconds: number,
  nowMs: number,
): { tracked: (DeliveryBatch & { pendingId: string })[]; items: NewPendingBatch[] } {
  const tracked = batches.map((batch) => {
    const { notBeforeMs, pendingId, ...body } = batch;
    void notBeforeMs;
    void pendingId;
    return { ...body, pendingId: pendingIdOf(body) };
  });
  const items = tracked.map(({ pendingId, ...body }) => ({
    hubId: body.portalId,
    pendingId,
    appId: body.appId,
    attemptNumber: body.attemptNumber,
    eventCount: body.events.length,
    queuedAtMs: nowMs,
    dueAtMs: nowMs + Math.max(0, delaySeconds) * 1000,
    batchJson: JSON.stringify(body),
  }));
  return { tracked, items };
}

/**
 * Records batches as pending, then queues them with their ids. Recorded first: a message the
 * deliverer got before its item existed would find nothing to claim, and be skipped.
 */
export async function queueTracked(
  queue: DeliveryQueue,
  batches: readonly DeliveryBatch[],
  delaySeconds: number,
  nowMs = Date.now(),
): Promise<void> {
  if (batches.length === 0) return;
  const { tracked, items } = trackedOf(batches, delaySeconds, nowMs);
  await insertPendingBatches(items);
  await queue.send(tracked, delaySeconds);
}

/**
 * queueTracked for the first tries of a stream batch: a batch of an account reset since the
 * data starts its events were filtered by (`resetStarts`) is dropped, neither recorded nor queued.
 */
async function queueTrackedSinceStarts(
  queue: DeliveryQueue,
  batches: readonly DeliveryBatch[],
  resetStarts: ReadonlyMap<number, number | null> | undefined,
): Promise<void> {
  if (batches.length === 0) return;
  const { tracked, items } = trackedOf(batches, 0, Date.now());
  const dropped = await insertPendingBatchesSinceStarts(items, resetStarts);
  const kept = tracked.filter((batch) => !dropped.has(batch.pendingId));
  if (kept.length > 0) await queue.send(kept, 0);
}

/** The hubs among these that are test accounts (their account item names a developer account): one BatchGet. */
async function testAccountsAmong(hubIds: readonly number[]): Promise<Set<number>> {
  const accounts = await findAccounts([...new Set(hubIds)]);
  return new Set(accounts.filter((account) => account.developerId !== undefined).map((account) => account.hubId));
}

/**
 * Queues the first tries of a stream batch's batches (shared/webhooks/generate-events.ts): those of
 * test accounts tracked as pending (on condition of the data starts their events were filtered by,
 * `resetStarts`: a batch of an account reset since is dropped), the others as they are. Reads the
 * accounts of the batches' hubs once, whatever the number of batches.
 */
export async function queueNewBatches(
  queue: DeliveryQueue,
  batches: readonly DeliveryBatch[],
  resetStarts?: ReadonlyMap<number, number | null>,
): Promise<void> {
  if (batches.length === 0) return;
  // A stage without the controls has no test accounts: nothing to look for, no read.
  if (!config.sandboxControls) {
    await queue.send(batches, 0);
    return;
  }
  const testAccounts = await testAccountsAmong(batches.map((batch) => batch.portalId));
  const others = batches.filter((batch) => !testAccounts.has(batch.portalId));
  if (others.length > 0) await queue.send(others, 0);
  await queueTrackedSinceStarts(
    queue,
    batches.filter((batch) => testAccounts.has(batch.portalId)),
    resetStarts,
  );
}
