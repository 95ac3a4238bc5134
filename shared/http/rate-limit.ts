import type { Route } from '../route-types';
import { countRequest, installPolicy, searchPolicy, type RateDecision, type RatePolicy } from '../rate-limits';
import { isRateLimited } from '../route-rate-limits';
import type { AuthContext } from './auth';
import { RateLimitError } from '../errors';

/** A limiter call started for one request: its DynamoDB update runs while the handler reads. */
export interface PendingRateLimit {
  policy: RatePolicy;
  decision: Promise<RateDecision>;
}

const messages: Record<RatePolicy['name'], string> = {
  TEN_SECONDLY_ROLLING: 'You have reached your ten_secondly_rolling limit.',
  SECONDLY: 'You have reached your secondly limit.',
};

/**
 * Starts counting a call, or returns undefined when the call is not limited: no access token
 * (public routes, developer keys), a route row with rateLimit 'none', or a limit of 0 on the account.
 */
export function startRateLimit(route: Route, auth: AuthContext | undefined): PendingRateLimit | undefined {
  if (!isRateLimited(route) || !auth?.rateLimits) return undefined;
  const isSearch = route.rateLimit === 'search';
  const limit = isSearch ? auth.rateLimits.searchPerSecond : auth.rateLimits.tenSecondly;
  if (limit <= 0) return undefined;
  const policy = isSearch ? searchPolicy : installPolicy;
  const decision = countRequest(policy, isSearch ? `${auth.hubId}` : `${auth.hubId}-${auth.appId}`, limit);
  // Awaited later (after the handler's read): marked handled now, so a failure is not reported as unhandled meanwhile.
  decision.catch(() => undefined);
  return { policy, decision };
}

/** The decision's response headers (none for search, as in HubSpot); throws the 429 when the call is over the limit. */
export async function settleRateLimit(pending: PendingRateLimit): Promise<Record<string, string>> {
  const decision = await pending.decision;
  const headers: Record<string, string> = pending.policy === installPolicy ? {
    'x-hubspot-ratelimit-interval-milliseconds': String(pending.policy.windowMs),
    'x-hubspot-ratelimit-max': String(decision.limit),
    'x-hubspot-ratelimit-remaining': String(decision.remaining),
  } : {};
  if (!decision.allowed) throw new RateLimitError(messages[pending.policy.name], { policyName: pending.policy.name, headers });
  return headers;
}
