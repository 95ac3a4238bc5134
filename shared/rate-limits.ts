import { addToBucket, rememberStaleBuckets } from './db/rate-limits';
import { nowMs } from './clock';
import type { Route } from './route-types';

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

export async function countRequest(policy: RatePolicy, subject: string, limit: number): Promise<RateDecision> {
  const now = nowMs();
  const bucket = Math.floor(now / policy.bucketMs);
  const oldest = Math.floor((now - policy.windowMs) / policy.bucketMs);
  const ttlSeconds = Math.ceil((now + 2 * policy.windowMs) / 1000) + 60;
  const counters = await addToBucket(policy.name, subject, bucket, 1, ttlSeconds);
  let rank = 0;
  const stale: number[] = [];
  for (const [number, count] of counters) {
    if (number >= oldest) rank += count;
    else stale.push(number);
  }
  rememberStaleBuckets(policy.name, subject, stale);
  if (rank <= limit) return { allowed: true, limit, remaining: limit - rank };
  await addToBucket(policy.name, subject, bucket, -1, ttlSeconds);
  return { allowed: false, limit, remaining: 0 };
}

/** An account's stored limits, with the defaults for what it does not set. */
export function rateLimitsOf(account: { tenSecondlyLimit?: number; searchPerSecondLimit?: number } | undefined): RateLimits {
  return {
    tenSecondly: account?.tenSecondlyLimit ?? defaultRateLimits.tenSecondly,
    searchPerSecond: account?.searchPerSecondLimit ?? defaultRateLimits.searchPerSecond,
  };
}

/**
 * Whether a route's calls are counted: every row called with an access token (developer-key-only
 * rows and public rows are not), unless the row opts out with rateLimit 'none'. The stack grants
 * exactly these functions the limiter's UpdateItem (lib/route-stack.ts).
 */
export function isRateLimited(route: Pick<Route, 'scopes' | 'auth' | 'rateLimit'>): boolean {
  return route.scopes !== 'public' && route.auth !== 'developerKey' && route.rateLimit !== 'none';
}
