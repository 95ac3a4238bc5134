import { randomUUID } from 'node:crypto';
import { ValidationError } from '../base/errors';
import { mapConcurrently } from '../base/map-concurrently';
import { sleep } from '../base/retry';
import {
  beginFlush,
  claimOf,
  claimPendingBatch,
  deletePendingBatches,
  endFlush,
  findPendingBatches,
  listPendingBatches,
  releasePendingBatch,
  removePendingBatch,
  type PendingBatch,
  type PendingOutcome,
} from '../db/webhook-pending';
import { findInstalledApps, listPortalDeliveryAttempts } from '../db/webhooks';
import { attemptDelivery, pendingOutcomeOf } from './deliver-batch';
import { deliveryQueue, type DeliveryBatch } from './delivery-queue';
import { maxConcurrentRequestsLimit } from './subscription-limits';
import { pendingClaimLeaseMs } from './pending-batches';
import { drainStream } from './stream-drain';
import type { DeliveryLogPage } from './webhook-management';

/**
 * Webhooks on demand for test accounts (the sandbox controls): deliver what is pending now, and
 * list the account's delivery attempts. What "pending" means and how a batch is never posted twice
 * by a flush and the queue's deliverer: shared/webhooks/pending-batches.ts and
 * shared/db/webhook-pending.ts; docs/webhooks.md, "Test accounts: pending batches and flush".
 */

/**
 * No work starts this close to the caller's deadline, so the answer (what was done) gets out
 * before it. An attempt already started may still take the target's 5 s timeout: the caller's
 * deadline should leave that much before its own hard end (the Lambda's timeout).
 */
export const flushStopMarginMs = 3500;
/** The longest a flush runs, whatever its deadline (Infinity in the local runtime). */
const maxFlushMs = 60_000;
/**
 * How long a flush counts as running for the deliverers (shared/db/webhook-pending.ts beginFlush):
 * its longest run and a last attempt's target timeout after it. The same from every start, so the
 * latest flush holds the latest bound.
 */
const flushWindowMs = maxFlushMs + 10_000;
/** How often the batches in flight elsewhere, and an app's taken places, are looked at again. */
const pollMs = 100;
/** A flush reads at most this many pending batches of the account; a second flush takes the rest. */
const maxPendingRead = 1000;

export interface FlushTotals {
  /** Events of the batches delivered (a 2xx) by an attempt made during the flush. */
  delivered: number;
  /** Events of the batches whose attempt during the flush failed (they are retried on the usual schedule). */
  failed: number;
}

/**
 * Delivers every pending batch of a test account now, without waiting for the stream's poll or a
 * retry's delay, and answers once each has been attempted. In order:
 *
 * 1. announces itself (beginFlush), so a deliverer that ends an attempt of the account's batches
 *    from then on leaves the outcome for it to count;
 * 2. locally, reads the table's stream up to now (stream-drain.ts), so the changes made before the
 *    call are queued batches; deployed, Lambda's event source does that within about a second;
 * 3. lists the account's pending batches once: each not held is claimed and attempted here,
 *    through the deliverer's code (signatures, the delivery log, the retry of a failed attempt,
 *    the app's maxConcurrentRequests: a batch whose app has every place taken waits for one);
 *    each held by a deliverer now (in flight) is waited for, polling, until its outcome is there
 *    (or its claim runs out, and it is attempted here); a retry queued since the flush began
 *    follows an attempt the flush counted, and keeps its time;
 * 4. answers the totals, counted in events.
 *
 * Nothing starts within flushStopMarginMs of `deadlineMs` (performance.now()'s clock) or after
 * a minute: what was not reached stays pending, for the queue or the next flush. A batch whose app
 * has no target any more is dropped, as the deliverer drops it, and counted in neither total.
 */
export async function flushAccountWebhooks(hubId: number, deadlineMs: number): Promise<FlushTotals> {
  const stopAtMs = Math.min(deadlineMs - flushStopMarginMs, performance.now() + maxFlushMs);
  const hasTime = () => performance.now() < stopAtMs;
  const totals: FlushTotals = { delivered: 0, failed: 0 };
  if (!hasTime()) return totals;
  const startedAtMs = Date.now();
  const add = (outcome: PendingOutcome, eventCount: number) => {
    if (outcome === 'delivered') totals.delivered += eventCount;
    else if (outcome === 'failed') totals.failed += eventCount;
  };
  /** Outcomes deliverers left, once read: removed at the end. */
  const read: string[] = [];
  const awaited = new Set<string>();

  const deliverHere = async (batches: readonly PendingBatch[]) => {
    await mapConcurrently(batches, maxConcurrentRequestsLimit, async (batch) => {
      if (!hasTime()) return;
      const outcome = await deliverNow(hubId, batch.pendingId, hasTime);
      if (outcome === 'taken') awaited.add(batch.pendingId);
      else if (outcome !== undefined) add(outcome, batch.eventCount);
    });
  };

  await beginFlush(hubId, startedAtMs + flushWindowMs);
  try {
    await drainStream();
    const pending = hasTime() ? await listPendingBatches(hubId, maxPendingRead) : [];
    const mine: PendingBatch[] = [];
    for (const batch of pending) {
      if (batch.outcome !== undefined) {
        // Attempted since this flush began (else before: only removed).
        if ((batch.doneAtMs ?? 0) >= startedAtMs) add(batch.outcome, batch.eventCount);
        read.push(batch.pendingId);
      } else if (isHeld(batch)) awaited.add(batch.pendingId);
      else if (batch.attemptNumber === 0 || batch.queuedAtMs < startedAtMs) mine.push(batch);
    }
    await deliverHere(mine);
    // Bounded by the time (rounds of at least pollMs each); the count bounds it once more.
    for (let round = 0; awaited.size > 0 && hasTime() && round < maxFlushMs / pollMs; round += 1) {
      await sleep(pollMs);
      const current = new Map((await findPendingBatches(hubId, [...awaited])).map((batch) => [batch.pendingId, batch]));
      const released: PendingBatch[] = [];
      for (const pendingId of [...awaited]) {
        const batch = current.get(pendingId);
        if (batch !== undefined && batch.outcome === undefined && isHeld(batch)) continue;
        awaited.delete(pendingId);
        // Gone without an outcome: another flush ended it (or a reset removed it); nothing to count here.
        if (batch === undefined) continue;
        if (batch.outcome !== undefined) {
          add(batch.outcome, batch.eventCount);
          read.push(pendingId);
        } else released.push(batch);
      }
      // Given back (the app was busy) or its claimer died: attempted here.
      await deliverHere(released);
    }
    if (read.length > 0) await deletePendingBatches(hubId, read);
  } finally {
    await endFlush(hubId).catch(() => undefined);
  }
  return totals;
}

/** Held by a live claim (a deliverer's or another flush's attempt in flight). */
const isHeld = (batch: PendingBatch): boolean =>
  batch.claimedUntilMs !== undefined && batch.claimedUntilMs >= Date.now();

/**
 * Claims one pending batch and attempts it here. 'taken' when the claim failed (held by someone
 * else, attempted, or gone); undefined when no place of the app's requests in flight came free in
 * time (the claim is given back: the batch is pending as before). A claim is held at most half its
 * lease while waiting for a place, so it always ends before the lease does: a deliverer can never
 * take the batch from under an attempt.
 */
async function deliverNow(
  hubId: number,
  pendingId: string,
  hasTime: () => boolean,
): Promise<PendingOutcome | 'taken' | undefined> {
  const claimed = await claimPendingBatch(hubId, pendingId, randomUUID(), Date.now(), pendingClaimLeaseMs);
  const claim = claimed && claimOf(claimed);
  if (!claimed || !claim) return 'taken';
  const batch: DeliveryBatch = { ...(JSON.parse(claimed.batchJson) as DeliveryBatch), pendingId };
  const waitForPlaceUntilMs = Date.now() + pendingClaimLeaseMs / 2;
  let outcome: Awaited<ReturnType<typeof attemptDelivery>> = 'busy';
  try {
    for (let round = 0; round < pendingClaimLeaseMs / pollMs; round += 1) {
      outcome = await attemptDelivery(batch, deliveryQueue(), Date.now());
      if (outcome !== 'busy' || !hasTime() || Date.now() >= waitForPlaceUntilMs) break;
      await sleep(pollMs);
    }
  } catch (error) {
    await releasePendingBatch(claim).catch(() => undefined);
    throw error;
  }
  if (outcome === 'busy') {
    await releasePendingBatch(claim);
    return undefined;
  }
  const pendingOutcome = pendingOutcomeOf(outcome);
  // This flush counts its own attempt: nothing to leave for it.
  await removePendingBatch(claim);
  return pendingOutcome;
}

export const defaultDeliveriesLimit = 20;
export const maxDeliveriesLimit = 100;
/** Rows of one app's log read per call at most: its log holds every account's attempts. */
const maxReadPerApp = 300;
/** A place in a delivery log, as listDeliveryAttempts pages by: the attempt's epoch ms (15 digits) and its id. */
const positionPattern = /^[0-9]{15}#[0-9a-f-]{36}$/;

function limitOf(value: string | undefined): number {
  if (value === undefined) return defaultDeliveriesLimit;
  const limit = /^[0-9]{1,3}$/.test(value) ? Number(value) : Number.NaN;
  if (!(limit >= 1 && limit <= maxDeliveriesLimit))
    throw new ValidationError(`limit must be between 1 and ${maxDeliveriesLimit}`, { context: { limit: [value] } });
  return limit;
}

function afterOf(value: string | undefined): string | undefined {
  if (value !== undefined && !positionPattern.test(value))
    throw new ValidationError('after is not a paging cursor this API returned', { context: { after: [value] } });
  return value;
}

/** Newest first, in DynamoDB's order of sort keys (bytes, not the locale's). */
const newestFirst = (a: { position: string }, b: { position: string }) =>
  a.position < b.position ? 1 : a.position > b.position ? -1 : 0;

/**
 * The delivery attempts of an account (its portalId) to the apps installed in it, newest first, in
 * the view of `GET /webhooks/v3/{appId}/deliveries` (kept 3 days), `limit` 1-100 (default 20),
 * paged by `after` (the same cursor: an attempt's place in its app's log). The attempts live in each
 * app's log among its other accounts', so each app's log is read newest first from the cursor,
 * filtered to the account, at most 300 rows per app per call, and merged. When an app's read
 * stopped before its log's end, rows older than where it stopped are unknown, so the page ends
 * there: it can then hold fewer than `limit` attempts (none, after a long stretch of other
 * accounts' attempts) and still have a next page. 400 naming `limit` or `after` when one is not
 * such a value.
 */
export async function listAccountDeliveries(
  hubId: number,
  query: { limit?: string; after?: string },
): Promise<DeliveryLogPage> {
  const limit = limitOf(query.limit);
  const after = afterOf(query.after);
  const appIds = [...new Set((await findInstalledApps(hubId)).map((install) => install.appId))];
  const pages = await mapConcurrently(appIds, 5, (appId) =>
    listPortalDeliveryAttempts(appId, hubId, {
      want: limit + 1,
      ...(after === undefined ? {} : { before: after }),
      maxRead: maxReadPerApp,
    }),
  );
  // The rows every app has read down to: below it, an app may hold rows not read yet.
  const floor = pages
    .map((page) => page.frontier)
    .filter((frontier): frontier is string => frontier !== undefined)
    .reduce<string | undefined>(
      (highest, frontier) => (highest === undefined || frontier > highest ? frontier : highest),
      undefined,
    );
  const rows = pages
    .flatMap((page) => page.attempts)
    .filter((row) => floor === undefined || row.position >= floor)
    .sort(newestFirst);
  const page = rows.slice(0, limit);
  const next = rows.length > limit ? page.at(-1)?.position : floor;
  return {
    results: page.map((row) => row.attempt),
    ...(next === undefined ? {} : { paging: { next: { after: next } } }),
  };
}
