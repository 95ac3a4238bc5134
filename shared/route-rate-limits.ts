import type { Route } from './base/route-types';

/**
 * Whether a route's calls are counted: every row called with an access token (developer-key-only
 * rows and public rows are not), unless the row opts out with rateLimit 'none'. The stack grants
 * exactly these functions the limiter's UpdateItem (lib/route-stack.ts).
 *
 * A file of its own, apart from the limiter (shared/limits/rate-limits.ts): the CDK app reads it, and
 * must not load the limiter's DynamoDB client, whose configuration exists only in a function.
 */
export function isRateLimited(route: Pick<Route, 'scopes' | 'auth' | 'rateLimit'>): boolean {
  return route.scopes !== 'public' && route.auth !== 'developerKey' && route.rateLimit !== 'none';
}
