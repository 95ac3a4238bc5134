import { randomUUID } from 'node:crypto';
import { config } from '../base/config';
import {
  acquireInFlightSlot,
  findWebhookSettings,
  findWebhookSigningSecret,
  insertDeliveryAttempt,
  releaseInFlightSlot,
  type DeliveryAttempt,
} from '../db/webhooks';
import { webhookLogger as logger } from './webhook-logger';
import { maxConcurrentRequestsLimit } from './subscription-limits';
import { openClientSecret } from './client-secret-seal';
import { createTargetPoster, deliveryTimeoutMs, type PostToTarget, type TargetAnswer } from './post-to-target';
import type { DeliveryBatch, DeliveryQueue } from './delivery-queue';
import { maxDeliveryAttempts, retryDelaySeconds } from './retry-schedule';
import { signatureHeaders } from './signatures';
import {
  claimOf,
  claimPendingBatch,
  finishPendingBatch,
  releasePendingBatch,
  type PendingOutcome,
} from '../db/webhook-pending';
import { pendingClaimLeaseMs, queueTracked } from './pending-batches';

/** A place among the requests in flight is held at most this long (the timeout plus margin), even if its holder dies. */
const inFlightLeaseMs = deliveryTimeoutMs + 5000;
/** When every place is taken, the batch comes back after this long (not counted as an attempt). */
const busyRetrySeconds = 1;

/**
 * What one run of a batch did: 'waiting' (not due yet: back to the queue), 'busy' (every place of
 * the app's requests in flight taken: back a second later), 'taken' (a test account's batch a
 * flush took first: nothing to do), 'dropped' (the app has no target), or an attempt's end.
 */
export type DeliveryOutcome = 'delivered' | 'retrying' | 'dead-lettered' | 'waiting' | 'busy' | 'dropped' | 'taken';

/** One poster per process: its agents keep connections to the targets alive between batches. */
let defaultPoster: PostToTarget | undefined;
const postToTarget: PostToTarget = (url, body, headers) => {
  defaultPoster ??= createTargetPoster({ allowsLoopback: config.allowsLoopbackHttpWebhooks });
  return defaultPoster(url, body, headers);
};

/** An app's sealed secret never changes once written: read once per process, not on every POST. */
const sealedSecrets = new Map<number, Promise<string | undefined>>();
function sealedSecretOf(appId: number): Promise<string | undefined> {
  let found = sealedSecrets.get(appId);
  if (!found) {
    found = findWebhookSigningSecret(appId);
    sealedSecrets.set(appId, found);
    // Neither a failure nor an absent secret is kept: the next batch asks again.
    found.then(
      (sealed) => {
        if (sealed === undefined) sealedSecrets.delete(appId);
      },
      () => sealedSecrets.delete(appId),
    );
  }
  return found;
}

async function record(attempt: DeliveryAttempt): Promise<void> {
  // The log helps a developer see why; losing one row must never stop a delivery.
  await insertDeliveryAttempt(attempt, randomUUID()).catch((error: unknown) => {
    logger.warn('webhook delivery log write failed', { appId: attempt.appId, error: String(error) });
  });
}

function nextAttempt(batch: DeliveryBatch): DeliveryBatch {
  const attemptNumber = batch.attemptNumber + 1;
  return {
    appId: batch.appId,
    portalId: batch.portalId,
    attemptNumber,
    events: batch.events.map((event) => ({ ...event, attemptNumber })),
  };
}

/**
 * One try of one batch from the queue. A batch that waits for a later due time goes back to the
 * queue untouched. A test account's batch (it carries `pendingId`) is claimed first
 * (shared/db/webhook-pending.ts): when that fails, a flush of the sandbox controls took it (or is
 * posting it now), so it is skipped ('taken'), and after the attempt the claim ends (the batch is
 * no longer pending; a retry is pending anew). Then attemptDelivery. When every place of the app's
 * requests in flight is taken, the batch comes back a second later, not counted as an attempt (a
 * claim is given back first). Throws only when the queue or the table cannot be reached, so the
 * batch comes back (a claim it held is given back, or runs out).
 */
export async function deliverBatch(
  batch: DeliveryBatch,
  queue: DeliveryQueue,
  nowMs = Date.now(),
  post: PostToTarget = postToTarget,
): Promise<DeliveryOutcome> {
  const { notBeforeMs, ...current } = batch;
  if (notBeforeMs !== undefined && notBeforeMs > nowMs) {
    await queue.send([current], Math.ceil((notBeforeMs - nowMs) / 1000));
    return 'waiting';
  }
  if (current.pendingId === undefined) {
    const outcome = await attemptDelivery(current, queue, nowMs, post);
    if (outcome === 'busy') await queue.send([current], busyRetrySeconds);
    return outcome;
  }
  const claimed = await claimPendingBatch(
    current.portalId,
    current.pendingId,
    randomUUID(),
    nowMs,
    pendingClaimLeaseMs,
  );
  const claim = claimed && claimOf(claimed);
  if (!claim) return 'taken';
  const outcome = await attemptDelivery(current, queue, nowMs, post).catch(async (error: unknown) => {
    await releasePendingBatch(claim).catch(() => undefined);
    throw error;
  });
  if (outcome === 'busy') {
    await releasePendingBatch(claim);
    await queue.send([current], busyRetrySeconds);
    return outcome;
  }
  await finishPendingBatch(claim, pendingOutcomeOf(outcome), Date.now());
  return outcome;
}

/** A dead letter is no longer pending: a replay sends it again as a fresh batch. */
function parkedOf(batch: Omit<DeliveryBatch, 'notBeforeMs'>): DeliveryBatch {
  const { pendingId, ...parked } = batch;
  void pendingId;
  return parked;
}

/** How a flush counts an attempt's outcome: a retry or a dead letter is a failed attempt. */
export function pendingOutcomeOf(outcome: Exclude<DeliveryOutcome, 'busy' | 'waiting' | 'taken'>): PendingOutcome {
  return outcome === 'delivered' ? 'delivered' : outcome === 'dropped' ? 'dropped' : 'failed';
}

/**
 * One attempt of one batch, due now: POST it signed to the app's current target, log the attempt,
 * and on any failure (no connection, > 5 s, a status other than 2xx, a target whose address is not
 * public) queue the next attempt with the same event ids (a test account's retry is pending anew:
 * queueTracked), or after the 10th hand it to the dead-letter queue. 'busy' when every place of the
 * app's requests in flight is taken: nothing was sent or queued, the caller decides when to come
 * back. The queue's deliverer (deliverBatch) and the sandbox flush both attempt through here.
 * Throws only when the queue or the table cannot be reached.
 */
export async function attemptDelivery(
  batch: Omit<DeliveryBatch, 'notBeforeMs'>,
  queue: DeliveryQueue,
  nowMs = Date.now(),
  post: PostToTarget = postToTarget,
): Promise<Exclude<DeliveryOutcome, 'waiting' | 'taken'>> {
  // No target (settings deleted): the app's subscriptions are paused, so what was queued is dropped.
  const settings = await findWebhookSettings(batch.appId);
  if (!settings) return 'dropped';
  const sealed = await sealedSecretOf(batch.appId);
  if (!sealed) {
    logger.error('webhook batch has no signing secret', { appId: batch.appId });
    await queue.deadLetter(parkedOf(batch));
    await record({
      appId: batch.appId,
      portalId: batch.portalId,
      attemptedAt: new Date(nowMs).toISOString(),
      targetUrl: settings.targetUrl,
      outcome: 'dead-lettered',
      error: 'the app has no sealed client secret to sign with (created before webhooks existed)',
      latencyMs: 0,
      attemptNumber: batch.attemptNumber,
      eventIds: batch.events.map((event) => String(event.eventId)),
    });
    return 'dead-lettered';
  }
  // HubSpot's maxConcurrentRequests is per app: the places are shared by every account's batches.
  const slot = await acquireInFlightSlot(
    batch.appId,
    settings.maxConcurrentRequests,
    maxConcurrentRequestsLimit,
    nowMs,
    inFlightLeaseMs,
  );
  if (!slot) return 'busy';
  const body = JSON.stringify(batch.events);
  let answer: TargetAnswer;
  try {
    const clientSecret = await openClientSecret(sealed, batch.appId);
    const timestampMs = Date.now();
    answer = await post(
      settings.targetUrl,
      body,
      signatureHeaders(clientSecret, 'POST', settings.targetUrl, body, timestampMs),
    );
  } finally {
    await releaseInFlightSlot(slot).catch(() => undefined);
  }
  const isDelivered = answer.statusCode !== undefined && answer.statusCode >= 200 && answer.statusCode < 300;
  const isLast = batch.attemptNumber + 1 >= maxDeliveryAttempts;
  const outcome = isDelivered ? 'delivered' : isLast ? 'dead-lettered' : 'retrying';
  if (outcome === 'retrying') {
    const next = nextAttempt(batch);
    const delaySeconds = retryDelaySeconds(next.attemptNumber);
    if (batch.pendingId === undefined) await queue.send([next], delaySeconds);
    else await queueTracked(queue, [next], delaySeconds);
  } else if (outcome === 'dead-lettered') {
    await queue.deadLetter(parkedOf(batch));
  }
  await record({
    appId: batch.appId,
    portalId: batch.portalId,
    attemptedAt: new Date(nowMs).toISOString(),
    targetUrl: settings.targetUrl,
    ...(answer.statusCode === undefined ? {} : { statusCode: answer.statusCode }),
    ...(answer.error ? { error: answer.error } : {}),
    outcome: outcome === 'retrying' ? 'failed' : outcome,
    latencyMs: answer.latencyMs,
    attemptNumber: batch.attemptNumber,
    eventIds: batch.events.map((event) => String(event.eventId)),
  });
  return outcome;
}
