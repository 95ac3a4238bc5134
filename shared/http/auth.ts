import { verifyAccessToken, type AccessTokenClaims } from '../oauth/access-token';
import { endedInstallMessage, standingOfAccessToken } from '../oauth/install-status';
import { isClientCredentialsScope, type ClientCredentialsScope, type Scope } from '../oauth/scopes';
import type { RateLimits } from '../limits/rate-limits';
import type { Route } from '../base/route-types';
import type { AppAuthContext } from './app-token-auth';
import { ExpiredAuthenticationError, InvalidAuthenticationError, MissingScopesError } from '../base/errors';

export interface AuthContext {
  appId: number;
  hubId: number;
  userId: number;
  scopes: readonly Scope[];
  /** Set for access-token callers only: what the rate limiter enforces (a developer key is not limited). */
  rateLimits?: RateLimits;
  /** Set for access-token callers only: the install generation the token was issued in ('' for the first). */
  installGeneration?: string;
  /** Set for access tokens of a test account (the sandbox controls): its calls are checked for injected faults. */
  isTestAccount?: boolean;
}

/** What a call with a token this service did not sign (or an app token on an account route) is told (401). */
export const invalidTokenMessage = 'The access token is invalid. Get a new one with the refresh token.';

/** What a call without a bearer token is told (401), on every route that takes one. */
export const missingCredentialsMessage =
  'Authentication credentials not found. This API supports OAuth 2.0 authentication and you can find more details at https://developers.hubspot.com/docs/methods/auth/oauth-overview';

/**
 * Reads the bearer token from a lower-cased header map and checks its signature, expiry and scopes;
 * throws 401/403 errors as HubSpot does. The install check (checkAccessToken) comes after it.
 */
export function authenticate(
  headers: Record<string, string | undefined>,
  requiredScopes: readonly string[],
): AuthContext {
  return authContextOf(verifyBearerToken(headers, requiredScopes));
}

function authContextOf(claims: AccessTokenClaims): AuthContext {
  return {
    appId: claims.appId,
    hubId: claims.hubId,
    userId: claims.userId,
    scopes: claims.scopes,
    rateLimits: claims.rateLimits,
    installGeneration: claims.installGeneration ?? '',
    ...(claims.isTestAccount ? { isTestAccount: true } : {}),
  };
}

const revokedGrantMessage =
  'The access token was revoked (its authorization code was used twice). Get new tokens by installing the app again.';

/**
 * The install check of every access-token call, after the signature and scopes: the token's install
 * must stand and its grant must not be revoked for a replayed code. Read from a per-instance cache
 * (shared/oauth/install-status.ts): no DynamoDB read on a warm instance, at most one a minute per
 * install, so an ended install's tokens stop within a minute everywhere.
 */
async function requireStandingInstall(claims: AccessTokenClaims): Promise<void> {
  const standing = await standingOfAccessToken(claims);
  if (standing === 'ended') throw new InvalidAuthenticationError(endedInstallMessage);
  if (standing === 'revoked') throw new InvalidAuthenticationError(revokedGrantMessage);
}

/** The access-token check of a row that takes tokens: the bearer token's signature, expiry and scopes, then its install. */
export async function checkAccessToken(
  headers: Record<string, string | undefined>,
  requiredScopes: readonly string[],
): Promise<AuthContext> {
  const claims = verifyBearerToken(headers, requiredScopes);
  await requireStandingInstall(claims);
  return authContextOf(claims);
}

function verifyBearerToken(
  headers: Record<string, string | undefined>,
  requiredScopes: readonly string[],
): AccessTokenClaims {
  const header = headers.authorization;
  const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1]) throw new InvalidAuthenticationError(missingCredentialsMessage);
  const result = verifyAccessToken(match[1]);
  // An app token (client credentials) names no account: to an account route it is as unknown as a forged one.
  if (result.outcome === 'invalid' || result.claims.kind !== 'account') {
    throw new InvalidAuthenticationError(invalidTokenMessage);
  }
  if (result.outcome === 'expired') {
    throw new ExpiredAuthenticationError(
      `The OAuth token used to make this call expired ${result.expiredForSeconds} second(s) ago.`,
      { context: { 'expire time': [new Date(result.claims.expiresAtSeconds * 1000).toISOString()] } },
    );
  }
  requireScopes(result.claims.scopes, requiredScopes);
  return result.claims;
}

/** At least one of the required scopes must be granted. */
export function requireScopes(granted: readonly string[], required: readonly string[]): void {
  if (required.length === 0 || required.some((scope) => granted.includes(scope))) return;
  throw new MissingScopesError("This app hasn't been granted all required scopes to make this call.", {
    errors: [
      {
        message: 'One or more of the following scopes are required.',
        context: { requiredGranularScopes: [...required] },
      },
    ],
    context: { requiredGranularScopes: [...required] },
  });
}

/**
 * The type a path token names (the resolver throws for a token it refuses), then one of the scopes
 * that type asks for (403 MISSING_SCOPES listing its alternatives): for rows whose path names the
 * type (`{objectType}`, `{pipelineObjectType}`), which asked only for any type's scope.
 */
export function resolveScopedType<T>(
  auth: Pick<AuthContext, 'scopes'>,
  token: string,
  resolve: (token: string) => T,
  scopesOf: (type: T) => readonly string[],
): T {
  const type = resolve(token);
  requireScopes(auth.scopes, scopesOf(type));
  return type;
}

/** A caller that presented its developer API key: it acts for the app of the path, which its developer account owns. */
export interface DeveloperAuthContext {
  developerId: number;
  appId: number;
}

/** A caller of a sandbox control: its developer account, and the apps that account owns. */
export interface DeveloperAccountAuthContext {
  developerId: number;
  appIds: readonly number[];
}

/** The query parameter that carries a developer API key, as HubSpot and @hubspot/api-client (`developerApiKey`) send it. */
export const developerApiKeyParameter = 'hapikey';

/** Credentials checked before the request is validated; `forPath` finishes the check once the path parameters are valid. */
export interface RequestCredentials {
  /** The verified access token, when the request is judged by one: known before the path is, so the limiter can count the call first. */
  token?: AuthContext;
  forPath(
    path: Record<string, string | undefined>,
  ): AuthContext | DeveloperAuthContext | DeveloperAccountAuthContext | AppAuthContext | undefined;
}

/**
 * The checks of the credentials a row takes, as its route parts carry them (RouteParts,
 * shared/http/middlewares.ts): a bundle has only those of its own row.
 */
export interface CredentialChecks {
  /** On rows that take access tokens: checkAccessToken. */
  readonly accessToken?: (
    headers: Record<string, string | undefined>,
    requiredScopes: readonly string[],
  ) => Promise<AuthContext>;
  /**
   * On rows that take developer API keys: authenticateDeveloperKey (shared/http/developer-key-auth.ts),
   * which judges a request by its key, or answers undefined where a row that also takes tokens got none.
   */
  readonly developerKey?: (
    route: Route,
    query: Record<string, string | undefined>,
  ) => Promise<RequestCredentials | undefined>;
  /** On rows that take the app's client-credentials token: checkAppToken (shared/http/app-token-auth.ts). */
  readonly appToken?: (
    headers: Record<string, string | undefined>,
    requiredScopes: readonly ClientCredentialsScope[],
  ) => Promise<AppAuthContext>;
}

/**
 * Applies the route row's auth mode (see RouteAuth): a bearer token, the developer API key of the
 * path's app, or either (a request carrying `hapikey` is judged by the key alone). Throws the 401s
 * here; a key of another developer's app is a 403 from `forPath`.
 */
export async function authenticateRequest(
  route: Route,
  headers: Record<string, string | undefined>,
  query: Record<string, string | undefined>,
  checks: CredentialChecks,
): Promise<RequestCredentials> {
  if (route.scopes === 'public') return { forPath: () => undefined };
  if (route.auth === 'appToken') {
    if (!checks.appToken) throw new Error(`route ${route.name} takes app tokens, but its parts do not check them`);
    const app = await checks.appToken(headers, route.scopes.filter(isClientCredentialsScope));
    return { forPath: () => app };
  }
  if ((route.auth ?? 'token') !== 'token') {
    if (!checks.developerKey)
      throw new Error(`route ${route.name} takes developer API keys, but its parts do not check them`);
    const byKey = await checks.developerKey(route, query);
    if (byKey) return byKey;
  }
  if (!checks.accessToken) throw new Error(`route ${route.name} takes access tokens, but its parts do not check them`);
  const token = await checks.accessToken(headers, route.scopes);
  return { token, forPath: () => token };
}

/** The query a handler sees: a developer API key is a credential, not a parameter, and is never echoed (links, logs). */
export function withoutCredentials(
  route: Route,
  query: Record<string, string | undefined>,
): Record<string, string | undefined> {
  if (route.scopes === 'public' || (route.auth ?? 'token') === 'token' || route.auth === 'appToken') return query;
  const { [developerApiKeyParameter]: key, ...rest } = query;
  void key;
  return rest;
}
