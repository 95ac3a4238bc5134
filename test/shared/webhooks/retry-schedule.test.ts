import {
  maxDeliveryAttempts,
  retryBaseDelaysSeconds,
  retryDelaySeconds,
} from '../../../shared/webhooks/retry-schedule';
import { splitIntoBatches } from '../../../shared/webhooks/delivery-queue';
import type { WebhookEvent } from '../../../shared/webhooks/webhook-events';

describe('the retry schedule', () => {
  it('makes 10 attempts: the first and 9 retries', () => {
    expect(maxDeliveryAttempts).toBe(10);
    expect(retryBaseDelaysSeconds).toHaveLength(maxDeliveryAttempts - 1);
  });

  it('retries first within 60 s, whatever the jitter', () => {
    expect(retryDelaySeconds(1, () => 0)).toBeLessThanOrEqual(60);
    expect(retryDelaySeconds(1, () => 0.999)).toBeLessThanOrEqual(60);
  });

  it('spreads the attempts over about 24 hours, with jitter of ±20 %', () => {
    const total = (random: () => number) =>
      Array.from({ length: 9 }, (_, index) => retryDelaySeconds(index + 1, random)).reduce((a, b) => a + b, 0);

    expect(total(() => 0.5) / 3600).toBeCloseTo(23.7, 1);
    expect(total(() => 0) / 3600).toBeGreaterThan(18);
    expect(total(() => 0.999) / 3600).toBeLessThan(29);
    expect(retryDelaySeconds(5, () => 0)).not.toBe(retryDelaySeconds(5, () => 0.999));
  });
});

describe('splitIntoBatches', () => {
  const event = (index: number, value = ''): WebhookEvent => ({
    eventId: index,
    subscriptionId: 1,
    portalId: 2,
    appId: 3,
    occurredAt: 0,
    subscriptionType: 'company.propertyChange',
    attemptNumber: 0,
    objectId: index,
    changeSource: 'API',
    changeFlag: 'UPDATED',
    propertyName: 'x',
    propertyValue: value,
  });

  it('puts at most 100 events in a batch, in order', () => {
    const batches = splitIntoBatches(
      3,
      2,
      Array.from({ length: 250 }, (_, index) => event(index)),
    );

    expect(batches.map((batch) => batch.events.length)).toEqual([100, 100, 50]);
    expect(batches.flatMap((batch) => batch.events.map((item) => item.eventId))).toEqual(
      Array.from({ length: 250 }, (_, index) => index),
    );
  });

  it('keeps a batch under 200 KB when values are large', () => {
    const batches = splitIntoBatches(
      3,
      2,
      Array.from({ length: 10 }, (_, index) => event(index, 'v'.repeat(60_000))),
    );

    expect(batches.every((batch) => Buffer.byteLength(JSON.stringify(batch.events)) < 200_000)).toBe(true);
    expect(batches.flatMap((batch) => batch.events)).toHaveLength(10);
  });
});
