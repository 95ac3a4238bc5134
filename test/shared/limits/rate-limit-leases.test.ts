import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as clock from '../../../shared/base/clock';
import { db, dynamoCallCounter, tableName } from '../../../shared/db/client';
import { rateLimitKey } from '../../../shared/db/keys';
import * as limiter from '../../../shared/limits/rate-limits';

/**
 * Leased permits: an instance that calls often counts several calls in one update and spends them
 * without a database call while their bucket is current. Two instances are two copies of the
 * module (jest.isolateModules), each with its own leases and clock, moved in lockstep.
 */
let other: typeof limiter;
let otherClock: typeof clock;

beforeAll(() => {
  jest.isolateModules(() => {
    /* eslint-disable @typescript-eslint/no-require-imports */
    other = require('../../../shared/limits/rate-limits') as typeof limiter;
    otherClock = require('../../../shared/base/clock') as typeof clock;
    /* eslint-enable @typescript-eslint/no-require-imports */
  });
});

afterEach(() => {
  clock.resetClock();
  otherClock.resetClock();
});

function freezeBoth(): void {
  clock.freezeClock();
  otherClock.freezeClock();
  otherClock.advanceClock(clock.nowMs() - otherClock.nowMs());
}

function advanceBoth(ms: number): void {
  clock.advanceClock(ms);
  otherClock.advanceClock(ms);
}

let nextSubject = Math.floor(Math.random() * 1e9);
const newSubject = () => {
  nextSubject += 1;
  return `lease-${nextSubject}`;
};

async function countersOf(subject: string): Promise<number> {
  const item =
    (
      await db.send(
        new GetCommand({
          TableName: tableName,
          Key: rateLimitKey(limiter.installPolicy.name, subject),
          ConsistentRead: true,
        }),
      )
    ).Item ?? {};
  return Object.entries(item)
    .filter(([name, value]) => /^b\d+$/.test(name) && typeof value === 'number')
    .reduce((sum, [, value]) => sum + (value as number), 0);
}

describe('rate limit leases', () => {
  it("counts a busy instance's calls several at a time, its Remaining still counting down by one", async () => {
    const subject = newSubject();
    freezeBoth();
    dynamoCallCounter.reset();

    const remaining: number[] = [];
    for (let call = 0; call < 40; call += 1)
      remaining.push((await limiter.countRequest(limiter.installPolicy, subject, 1000)).remaining);

    expect(remaining).toEqual(Array.from({ length: 40 }, (_, index) => 999 - index));
    const updates = dynamoCallCounter.calls.get('UpdateItemCommand') ?? 0;
    expect(updates).toBeLessThanOrEqual(12);
    expect(updates).toBeGreaterThanOrEqual(40 / limiter.maxLeasePermits);
  });

  it('gives unspent permits back with its next update, so the item counts only calls made', async () => {
    const subject = newSubject();
    freezeBoth();
    for (let call = 0; call < 10; call += 1) await limiter.countRequest(limiter.installPolicy, subject, 1000);
    const counted = await countersOf(subject);
    // Two buckets on: no recent demand, so the next call counts itself alone.
    advanceBoth(2 * limiter.installPolicy.bucketMs);

    await limiter.countRequest(limiter.installPolicy, subject, 1000);

    expect(counted).toBeGreaterThan(10);
    expect(await countersOf(subject)).toBe(11);
  });

  it('admits every call within the limit when one instance has many claims in flight across buckets', async () => {
    // The local gateway serves every request in one process: 250 parallel GETs of one token meant
    // 250 claims out at once, each sized by the demand, while slow answers let the buckets move on.
    // Here 100 calls in 10 waves, half a bucket apart, all sent before any answer comes.
    const subject = newSubject();
    const limit = 120;
    freezeBoth();
    await limiter.countRequest(limiter.installPolicy, subject, limit);

    const pending: Promise<limiter.RateDecision>[] = [];
    for (let wave = 0; wave < 10; wave += 1) {
      for (let call = 0; call < 10; call += 1)
        pending.push(limiter.countRequest(limiter.installPolicy, subject, limit));
      advanceBoth(limiter.installPolicy.bucketMs / 2);
    }
    const decisions = await Promise.all(pending);
    advanceBoth(2 * limiter.installPolicy.bucketMs); // a lease of the last bucket is given back too
    const next = await limiter.countRequest(limiter.installPolicy, subject, limit);

    expect(decisions.filter((decision) => !decision.allowed)).toHaveLength(0);
    // Every permit the claims took beyond their own calls went back with the next update.
    expect(next.allowed).toBe(true);
    expect(await countersOf(subject)).toBe(102);
  });

  it('never admits more than the limit in any 10 s window across two instances, whatever the interleaving', async () => {
    const subject = newSubject();
    const limit = 200;
    freezeBoth();
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const allowedAt: number[] = [];
    dynamoCallCounter.reset();
    let calls = 0;
    for (let step = 0; step < 160; step += 1) {
      if (random() < 0.3) advanceBoth(Math.floor(random() * 1000));
      const burst = 1 + Math.floor(random() * 4);
      const decisions = await Promise.all(
        Array.from({ length: burst }, () =>
          (random() < 0.5 ? limiter : other).countRequest(limiter.installPolicy, subject, limit),
        ),
      );
      calls += burst;
      for (const decision of decisions) if (decision.allowed) allowedAt.push(clock.nowMs());
    }

    const worst = Math.max(
      ...allowedAt.map((at) => allowedAt.filter((other) => other > at - 10_000 && other <= at).length),
    );
    expect(worst).toBeLessThanOrEqual(limit);
    expect(allowedAt.length).toBeGreaterThan(limit);
    // Leases saved calls: fewer limiter updates than calls.
    expect(dynamoCallCounter.calls.get('UpdateItemCommand') ?? 0).toBeLessThan(calls);
  });
});
