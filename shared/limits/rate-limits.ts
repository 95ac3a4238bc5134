import { addToBuckets } from '../db/rate-limits';
import { nowMs } from '../base/clock';

/**
 * HubSpot's limits for public apps: per install (app x account) N requests in any rolling 10 s
 * (default 110), and per account M search requests per second (default 5). An account stores its
 * own values (0 = no limit); they travel in the access token's claims, so the limiter needs no read.
 *
 * Exactness: each request is counted in a time bucket of its subject's one DynamoDB item by an atomic
 * ADD that returns every counter. A request's rank is the sum of the counters from the bucket that
 * holds (now - window) up to the newest, after its own increment; it passes when its rank is at
 * most the limit. Any window of the policy's length therefore holds at most `limit` accepted
 * requests, across any number of Lambda instances (the last one counted saw all the others). A
 * request may be refused up to one bucket width earlier than a perfect sliding log would allow.
 * A refused request takes its increment back (a second call, only on the 429 path).
 *
 * Leases: an instance that served several calls of a subject in the current or previous bucket
 * counts up to `maxLeasePermits` at once (ADD k, checked as k ranks) and spends the extra permits
 * on its next calls without a database call, but only while that bucket is current, so each permit
 * is counted in the bucket of the call that spends it and the argument above holds unchanged.
 * Unspent permits are given back (a negative ADD to their bucket) in the instance's next update;
 * until then they count, so leases can only refuse early, never admit more. Lease size is also
 * capped by a sixteenth of the remaining count last seen: near the limit every call counts alone.
 * The permits an instance holds or has asked for (claims in flight) count against its next lease, so
 * one process serving many calls at once (the local gateway) holds at most one lease's worth.
 */
export interface RatePolicy {
  name: 'TEN_SECONDLY_ROLLING' | 'SECONDLY';
  windowMs: number;
  bucketMs: number;
}

export const installPolicy: RatePolicy = { name: 'TEN_SECONDLY_ROLLING', windowMs: 10_000, bucketMs: 200 };
export const searchPolicy: RatePolicy = { name: 'SECONDLY', windowMs: 1_000, bucketMs: 100 };

export const defaultRateLimits = { tenSecondly: 110, searchPerSecond: 5 } as const;

export interface RateLimits {
  tenSecondly: number;
  searchPerSecond: number;
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
}

/** The most permits one update claims for this instance. */
export const maxLeasePermits = 32;
/**
 * A lease is at most this fraction of the remaining count last seen: permits another instance holds
 * unspent can refuse a call early, so near the limit (under 32 left) every call counts alone.
 */
const leaseRemainingShare = 16;
/** Refused calls wait for this instance's claims in flight at most this many rounds before answering 429. */
const maxWaitRounds = 3;
const maxTrackedSubjects = 10_000;

/** Permits this instance holds for one subject: counted in `bucket`, spent only while it is current. */
interface Lease {
  bucket: number;
  left: number;
  /** The rank of the next permit (for the Remaining header). */
  nextRank: number;
}

interface SubjectState {
  lease?: Lease;
  /** Calls of the subject this instance counted, in `bucket` and in the bucket before it. */
  served: { bucket: number; count: number; previous: number };
  claims: Set<Promise<unknown>>;
  /** Permits beyond their own call that this instance's claims in flight asked for. */
  extraInFlight: number;
  /** Counted permits no call will spend (their bucket passed): the next claim gives them back, by bucket. */
  unspent: Map<number, number>;
  lastRemaining: number;
  /** Buckets the last update showed outside the window: the next claim removes them from the item. */
  stale: number[];
}

const subjects = new Map<string, SubjectState>();

function stateOf(key: string): SubjectState {
  let state = subjects.get(key);
  if (!state) {
    if (subjects.size >= maxTrackedSubjects) subjects.delete(subjects.keys().next().value ?? '');
    state = {
      served: { bucket: 0, count: 0, previous: 0 },
      claims: new Set(),
      extraInFlight: 0,
      unspent: new Map(),
      lastRemaining: 0,
      stale: [],
    };
    subjects.set(key, state);
  }
  return state;
}

/** How many calls this instance served in the bucket so far, or in the one before: the demand a lease is sized by. */
function noteServed(state: SubjectState, bucket: number): number {
  const { served } = state;
  if (served.bucket !== bucket) {
    served.previous = served.bucket === bucket - 1 ? served.count : 0;
    served.bucket = bucket;
    served.count = 0;
  }
  const demand = Math.max(served.count, served.previous);
  served.count += 1;
  return demand;
}

function setAside(state: SubjectState, bucket: number, permits: number): void {
  if (permits > 0) state.unspent.set(bucket, (state.unspent.get(bucket) ?? 0) + permits);
}

/** Keeps the permits a claim brought beyond its call as the lease while their bucket is current, else sets them aside. */
function keepLease(state: SubjectState, bucket: number, currentBucket: number, left: number, nextRank: number): void {
  if (bucket !== currentBucket) {
    setAside(state, bucket, left);
    return;
  }
  const current = state.lease;
  if (current && current.bucket === bucket && current.left > 0) {
    current.left += left;
    return;
  }
  if (current && current.bucket !== bucket) setAside(state, current.bucket, current.left);
  state.lease = { bucket, left, nextRank };
}

/** The amounts of the next update: the new permits, and the permits set aside (within the window) given back. */
function amountsOf(state: SubjectState, bucket: number, oldest: number, permits: number): Map<number, number> {
  const amounts = new Map<number, number>([[bucket, permits]]);
  const old = state.lease;
  if (old && old.bucket !== bucket) {
    state.lease = undefined;
    setAside(state, old.bucket, old.left);
  }
  // Taken out now: a permit is never spent or given back twice. The current bucket's stay (the clock
  // went back): netting them against this claim could leave the update nothing to add.
  for (const [number, count] of state.unspent) {
    if (number === bucket) continue;
    state.unspent.delete(number);
    if (number >= oldest) amounts.set(number, -count);
  }
  return amounts;
}

function spendLease(state: SubjectState, bucket: number, limit: number): RateDecision | undefined {
  const lease = state.lease;
  if (!lease || lease.bucket !== bucket || lease.left <= 0) return undefined;
  lease.left -= 1;
  const rank = lease.nextRank;
  lease.nextRank += 1;
  return { allowed: true, limit, remaining: Math.max(0, limit - rank) };
}

export async function countRequest(policy: RatePolicy, subject: string, limit: number): Promise<RateDecision> {
  const now = nowMs();
  const bucket = Math.floor(now / policy.bucketMs);
  const oldest = Math.floor((now - policy.windowMs) / policy.bucketMs);
  const ttlSeconds = Math.ceil((now + 2 * policy.windowMs) / 1000) + 60;
  const state = stateOf(`${policy.name}|${subject}`);
  const demand = noteServed(state, bucket);
  const leased = spendLease(state, bucket, limit);
  if (leased) return leased;

  // The lease target counts the permits this instance already holds or has asked for: calls served at
  // once (the local gateway, one process) would otherwise each claim a lease, which the buckets
  // passing by before their answers came could leave unspent, refusing calls within the limit.
  const target = Math.min(maxLeasePermits, demand, Math.floor(state.lastRemaining / leaseRemainingShare));
  const held = state.extraInFlight + (state.lease?.bucket === bucket ? state.lease.left : 0);
  const permits = Math.max(1, target - held);
  const amounts = amountsOf(state, bucket, oldest, permits);
  const claim = addToBuckets(policy.name, subject, amounts, ttlSeconds, state.stale);
  state.claims.add(claim);
  state.extraInFlight += permits - 1;
  let counters: Map<number, number>;
  try {
    counters = await claim;
  } finally {
    state.claims.delete(claim);
    state.extraInFlight -= permits - 1;
  }
  let rank = 0;
  state.stale = [];
  for (const [number, count] of counters) {
    if (number >= oldest) rank += count;
    else state.stale.push(number);
  }
  state.lastRemaining = Math.max(0, limit - rank);
  const granted = Math.min(permits, Math.max(0, limit - (rank - permits)));
  if (granted < permits) await addToBuckets(policy.name, subject, new Map([[bucket, granted - permits]]), ttlSeconds);
  if (granted > 0) {
    const firstRank = rank - permits + 1;
    if (granted > 1) keepLease(state, bucket, Math.floor(nowMs() / policy.bucketMs), granted - 1, firstRank + 1);
    return { allowed: true, limit, remaining: Math.max(0, limit - firstRank) };
  }
  // Over the limit as counted: a claim of this instance still in flight may bring permits of this bucket.
  for (let round = 0; round < maxWaitRounds && state.claims.size > 0; round += 1)
    await Promise.allSettled([...state.claims]);
  return spendLease(state, bucket, limit) ?? { allowed: false, limit, remaining: 0 };
}

/** An account's stored limits, with the defaults for what it does not set. */
export function rateLimitsOf(
  account: { tenSecondlyLimit?: number; searchPerSecondLimit?: number } | undefined,
): RateLimits {
  return {
    tenSecondly: account?.tenSecondlyLimit ?? defaultRateLimits.tenSecondly,
    searchPerSecond: account?.searchPerSecondLimit ?? defaultRateLimits.searchPerSecond,
  };
}
