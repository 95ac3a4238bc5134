import { acquireInFlightSlot, releaseInFlightSlot, type InFlightSlot } from '../../../shared/db/webhooks';
import { deliverBatch, type DeliveryOutcome } from '../../../shared/webhooks/deliver-batch';
import type { DeliveryBatch } from '../../../shared/webhooks/delivery-queue';
import { maxConcurrentRequestsLimit } from '../../../shared/webhooks/subscription-types';
import type { PostToTarget } from '../../../shared/webhooks/post-to-target';
import { configureWebhookSettings } from '../../../shared/webhooks/webhook-management';
import { provision } from '../../support/harness';
import { recordingQueue } from '../../support/recording-queue';

/**
 * maxConcurrentRequests against the real DynamoDB Local: the places are items of the table, as
 * deployed, where every Lambda instance takes them; only the POST itself is a function here that
 * holds each request open and counts how many are open at once.
 */

/** A target that answers 200 after `holdMs`, counting the requests open at once. */
function heldTarget(holdMs: number): { post: PostToTarget; peak: () => number; portals: number[] } {
  let open = 0;
  let peak = 0;
  const portals: number[] = [];
  return {
    post: async (_url, body) => {
      open += 1;
      peak = Math.max(peak, open);
      portals.push(...(JSON.parse(body) as { portalId: number }[]).map((event) => event.portalId));
      await new Promise((resolve) => setTimeout(resolve, holdMs));
      open -= 1;
      return { statusCode: 200, latencyMs: holdMs };
    },
    peak: () => peak,
    portals,
  };
}

const batchOf = (appId: number, portalId: number): DeliveryBatch => ({
  appId,
  portalId,
  attemptNumber: 0,
  events: [
    {
      eventId: portalId,
      subscriptionId: 1,
      portalId,
      appId,
      occurredAt: 0,
      subscriptionType: 'company.creation',
      attemptNumber: 0,
      objectId: 1,
      changeSource: 'API',
      changeFlag: 'CREATED',
    },
  ],
});

describe('maxConcurrentRequests', () => {
  it("is per app: with 1, two accounts' batches at once make one request, the other comes back busy", async () => {
    const app = await provision();
    await configureWebhookSettings({ appId: app.appId }, app.appId, {
      targetUrl: 'http://127.0.0.1:9/hooks',
      throttling: { maxConcurrentRequests: 1 },
    });
    const target = heldTarget(300);
    const queue = recordingQueue();

    const outcomes: DeliveryOutcome[] = await Promise.all(
      [40000101, 40000102].map((portalId) =>
        deliverBatch(batchOf(app.appId, portalId), queue, Date.now(), target.post),
      ),
    );

    expect([...outcomes].sort()).toEqual(['busy', 'delivered']);
    expect(target.peak()).toBe(1);
    // The busy batch is the one not posted, back on the queue as the same attempt a second later.
    expect(queue.sent.map(({ batch, delaySeconds }) => [batch.portalId, batch.attemptNumber, delaySeconds])).toEqual([
      [[40000101, 40000102].find((portalId) => !target.portals.includes(portalId)), 0, 1],
    ]);
  });

  it("never lets batches of several accounts exceed the app's limit", async () => {
    const app = await provision();
    await configureWebhookSettings({ appId: app.appId }, app.appId, {
      targetUrl: 'http://127.0.0.1:9/hooks',
      throttling: { maxConcurrentRequests: 3 },
    });
    const target = heldTarget(300);

    const outcomes = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        deliverBatch(batchOf(app.appId, 40000200 + (index % 4)), recordingQueue(), Date.now(), target.post),
      ),
    );

    expect(target.peak()).toBeLessThanOrEqual(3);
    expect(outcomes.filter((outcome) => outcome === 'delivered').length).toBeGreaterThanOrEqual(1);
    expect(outcomes.filter((outcome) => outcome === 'delivered').length).toBeLessThanOrEqual(3);
  });
});

describe('the places in flight (shared/db/webhooks.ts)', () => {
  const appId = 9_000_000 + (process.pid % 100_000);
  const leaseMs = 10_000;

  it('keeps a lowered limit while places held under the higher one are in flight, and frees them as they end', async () => {
    const nowMs = Date.now();
    const held: InFlightSlot[] = [];
    for (let index = 0; index < maxConcurrentRequestsLimit; index += 1) {
      const slot = await acquireInFlightSlot(
        appId,
        maxConcurrentRequestsLimit,
        maxConcurrentRequestsLimit,
        nowMs,
        leaseMs,
      );
      if (!slot) throw new Error(`place ${index} of ${maxConcurrentRequestsLimit} was not free`);
      held.push(slot);
    }
    const first = held.find((slot) => slot.slot === 's0');
    if (!first) throw new Error('s0 was not taken');
    await releaseInFlightSlot(first);

    // s0 is free, but nine requests taken under the limit of 10 are still in flight: the limit of 1 is already reached.
    const whileHeld = await acquireInFlightSlot(appId, 1, maxConcurrentRequestsLimit, nowMs, leaseMs);
    for (const slot of held.filter((candidate) => candidate !== first)) await releaseInFlightSlot(slot);
    const afterwards = await acquireInFlightSlot(appId, 1, maxConcurrentRequestsLimit, nowMs, leaseMs);
    if (afterwards) await releaseInFlightSlot(afterwards);

    expect(whileHeld).toBeUndefined();
    expect(afterwards?.slot).toBe('s0');
  });

  it('frees a place whose lease ran out (a deliverer that died holding it)', async () => {
    const nowMs = Date.now();
    const abandoned = await acquireInFlightSlot(appId + 1, 1, maxConcurrentRequestsLimit, nowMs, 1000);

    const meanwhile = await acquireInFlightSlot(appId + 1, 1, maxConcurrentRequestsLimit, nowMs + 500, 1000);
    const later = await acquireInFlightSlot(appId + 1, 1, maxConcurrentRequestsLimit, nowMs + 1500, 1000);
    if (later) await releaseInFlightSlot(later);

    expect(abandoned?.slot).toBe('s0');
    expect(meanwhile).toBeUndefined();
    expect(later?.slot).toBe('s0');
  });
});
