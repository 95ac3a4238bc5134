import { isRateLimited, type Route } from '../base/route-types';
import { countRequest, installPolicy, searchPolicy, type RatePolicy } from '../limits/rate-limits';
import type { AuthContext } from './auth';
import { RateLimitError } from '../base/errors';

const messages: Record<RatePolicy['name'], string> = {
  TEN_SECONDLY_ROLLING: 'You have reached your ten_secondly_rolling limit.',
  SECONDLY: 'You have reached your secondly limit.',
};

/** The X-HubSpot-RateLimit-* headers of a decision of `policy`: HubSpot sends them for the ten-secondly limit only. */
export function rateLimitHeaders(policy: RatePolicy, limit: number, remaining: number): Record<string, string> {
  return policy === installPolicy
    ? {
        'x-hubspot-ratelimit-interval-milliseconds': String(policy.windowMs),
        'x-hubspot-ratelimit-max': String(limit),
        'x-hubspot-ratelimit-remaining': String(remaining),
      }
    : {};
}

/** The 429 of `policy`: HubSpot's message and policy name (what the official SDK's retry reads), with the decision's headers. */
export function rateLimitError(policy: RatePolicy, headers: Record<string, string>): RateLimitError {
  return new RateLimitError(messages[policy.name], { policyName: policy.name, headers });
}

/**
 * Counts one call and returns the response headers of the decision (none for search, as in
 * HubSpot), or undefined when the call is not limited: no access token (public routes, developer
 * keys), a route row with rateLimit 'none', or a limit of 0 on the account. Throws the 429 when the
 * call is over the limit.
 */
export async function limitCall(
  route: Route,
  auth: AuthContext | undefined,
): Promise<Record<string, string> | undefined> {
  if (!isRateLimited(route) || !auth?.rateLimits) return undefined;
  const isSearch = route.rateLimit === 'search';
  const limit = isSearch ? auth.rateLimits.searchPerSecond : auth.rateLimits.tenSecondly;
  if (limit <= 0) return undefined;
  const policy = isSearch ? searchPolicy : installPolicy;
  const decision = await countRequest(policy, isSearch ? `${auth.hubId}` : `${auth.hubId}-${auth.appId}`, limit);
  const headers = rateLimitHeaders(policy, decision.limit, decision.remaining);
  if (!decision.allowed) throw rateLimitError(policy, headers);
  return headers;
}
