import { verifyAccessToken } from '../oauth/access-token';
import type { Scope } from '../oauth/scopes';
import type { RateLimits } from '../rate-limits';
import { ExpiredAuthenticationError, InvalidAuthenticationError, MissingScopesError } from './errors';

export interface AuthContext {
  appId: number;
  hubId: number;
  userId: number;
  scopes: readonly Scope[];
  /** Set for access-token callers only: what the rate limiter enforces (a developer key is not limited). */
  rateLimits?: RateLimits;
}

const missingCredentialsMessage = 'Authentication credentials not found. This API supports OAuth 2.0 authentication and you can find more details at https://developers.hubspot.com/docs/methods/auth/oauth-overview';

/** Reads the bearer token from a lower-cased header map; throws 401/403 errors as HubSpot does. */
export function authenticate(headers: Record<string, string | undefined>, requiredScopes: readonly string[]): AuthContext {
  const header = headers.authorization;
  const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1]) throw new InvalidAuthenticationError(missingCredentialsMessage);
  const result = verifyAccessToken(match[1]);
  if (result.outcome === 'invalid') {
    throw new InvalidAuthenticationError('The access token is invalid. Get a new one with the refresh token.');
  }
  if (result.outcome === 'expired') {
    throw new ExpiredAuthenticationError(
      `The OAuth token used to make this call expired ${result.expiredForSeconds} second(s) ago.`,
      { context: { 'expire time': [new Date(result.claims.expiresAtSeconds * 1000).toISOString()] } },
    );
  }
  const { claims } = result;
  requireScopes(claims.scopes, requiredScopes);
  return { appId: claims.appId, hubId: claims.hubId, userId: claims.userId, scopes: claims.scopes, rateLimits: claims.rateLimits };
}

/** At least one of the required scopes must be granted. */
export function requireScopes(granted: readonly string[], required: readonly string[]): void {
  if (required.length === 0 || required.some((scope) => granted.includes(scope))) return;
  throw new MissingScopesError("This app hasn't been granted all required scopes to make this call.", {
    errors: [{ message: 'One or more of the following scopes are required.', context: { requiredGranularScopes: [...required] } }],
    context: { requiredGranularScopes: [...required] },
  });
}
