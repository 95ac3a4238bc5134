import type { DeveloperApiKey } from '../db/developers';
import { verifyAccessToken, type AccessTokenClaims } from '../oauth/access-token';
import { endedInstallMessage, standingOfAccessToken } from '../oauth/install-status';
import type { Scope } from '../oauth/scopes';
import type { RateLimits } from '../limits/rate-limits';
import type { Route } from '../base/route-types';
import {
  ExpiredAuthenticationError,
  ForbiddenError,
  InvalidAuthenticationError,
  MissingScopesError,
} from '../base/errors';

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

/**
 * Whether the row's function can be called with an access token (auth 'token' or
 * 'developerKeyOrToken'), defined when its bundle is built (lib/bundling.ts, lambdaDefinesFor): in
 * the bundle of a route that takes none, esbuild leaves out token verification, the install check,
 * the scope catalog, the limiter and the faults (about 7 KiB); in one that takes no developer API
 * key, the key's checks. Run from source they are undefined.
 */
declare const BUNDLED_ROUTE_TAKES_TOKENS: boolean | undefined;
/** Whether the row's function can be called with a developer API key (the same, for the key's checks). */
declare const BUNDLED_ROUTE_TAKES_DEVELOPER_KEYS: boolean | undefined;

const missingCredentialsMessage =
  'Authentication credentials not found. This API supports OAuth 2.0 authentication and you can find more details at https://developers.hubspot.com/docs/methods/auth/oauth-overview';

/**
 * Reads the bearer token from a lower-cased header map and checks its signature, expiry and scopes;
 * throws 401/403 errors as HubSpot does. The install check (authenticateRequest) comes after it.
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

function verifyBearerToken(
  headers: Record<string, string | undefined>,
  requiredScopes: readonly string[],
): AccessTokenClaims {
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

const missingDeveloperKeyMessage =
  "This API needs the developer API key of the app's developer account as the hapikey query parameter; OAuth access tokens cannot call it.";

type DeveloperKeyVerifier = (presented: string) => Promise<DeveloperApiKey | undefined>;
let developerKeyVerifier: DeveloperKeyVerifier | undefined;

/**
 * Installed by shared/http/developer-key-auth.ts, which only the handlers of developer-key routes
 * import: the key lookup (and its table partition) is then in those bundles alone, so every other
 * function's IAM grant can leave the developer-key partition out.
 */
export function installDeveloperKeyVerifier(verify: DeveloperKeyVerifier): void {
  developerKeyVerifier = verify;
}

/** Checks the presented key (401 when missing or unknown); which app it may act for is checked once the path is valid. */
async function authenticateDeveloperKey(route: Route, presented: string | undefined): Promise<DeveloperApiKey> {
  if (!developerKeyVerifier)
    throw new Error(
      `route ${route.name} takes developer API keys, but its handler does not import shared/http/developer-key-auth`,
    );
  if (presented === undefined || presented === '') throw new InvalidAuthenticationError(missingDeveloperKeyMessage);
  const key = await developerKeyVerifier(presented);
  if (!key) throw new InvalidAuthenticationError("This hapikey doesn't exist.");
  return key;
}

/** 403 for a valid key of a developer account that does not own the path's app (whether that app exists or not). */
function requireAppOfDeveloper(key: DeveloperApiKey, rawAppId: string | undefined): DeveloperAuthContext {
  const appId = Number(rawAppId);
  if (rawAppId !== undefined && /^[0-9]{1,15}$/.test(rawAppId) && key.appIds.includes(appId))
    return { developerId: key.developerId, appId };
  throw new ForbiddenError(
    `This developer API key cannot manage application ${String(rawAppId)}: it belongs to a developer account that does not own it.`,
    {
      context: { applicationId: [String(rawAppId)] },
    },
  );
}

/** Credentials checked before the request is validated; `forPath` finishes the check once the path parameters are valid. */
export interface RequestCredentials {
  /** The verified access token, when the request is judged by one: known before the path is, so the limiter can count the call first. */
  token?: AuthContext;
  forPath(
    path: Record<string, string | undefined>,
  ): AuthContext | DeveloperAuthContext | DeveloperAccountAuthContext | undefined;
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
): Promise<RequestCredentials> {
  if (route.scopes === 'public') return { forPath: () => undefined };
  const mode = route.auth ?? 'token';
  if (typeof BUNDLED_ROUTE_TAKES_DEVELOPER_KEYS === 'undefined' || BUNDLED_ROUTE_TAKES_DEVELOPER_KEYS) {
    const presentedKey = query[developerApiKeyParameter];
    if (mode === 'developerAccount') {
      const key = await authenticateDeveloperKey(route, presentedKey);
      const account: DeveloperAccountAuthContext = { developerId: key.developerId, appIds: key.appIds };
      return { forPath: () => account };
    }
    if (mode === 'developerKey' || (mode === 'developerKeyOrToken' && presentedKey !== undefined)) {
      const key = await authenticateDeveloperKey(route, presentedKey);
      return { forPath: (path) => requireAppOfDeveloper(key, path.appId) };
    }
  }
  if (typeof BUNDLED_ROUTE_TAKES_TOKENS === 'undefined' || BUNDLED_ROUTE_TAKES_TOKENS) {
    const claims = verifyBearerToken(headers, route.scopes);
    await requireStandingInstall(claims);
    const token = authContextOf(claims);
    return { token, forPath: () => token };
  }
  throw new Error(`this bundle was built for a route that takes no access tokens, not ${route.name}`);
}

/** The query a handler sees: a developer API key is a credential, not a parameter, and is never echoed (links, logs). */
export function withoutCredentials(
  route: Route,
  query: Record<string, string | undefined>,
): Record<string, string | undefined> {
  if (route.scopes === 'public' || (route.auth ?? 'token') === 'token') return query;
  const { [developerApiKeyParameter]: key, ...rest } = query;
  void key;
  return rest;
}
