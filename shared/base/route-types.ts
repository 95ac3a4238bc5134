export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'ANY';

/** What the function may do with the table; the stack grants exactly this. */
export type TableAccess = 'none' | 'read' | 'readwrite';

/**
 * How a caller of a non-public route proves who it is:
 * - 'token' (the default): a bearer OAuth access token holding one of the row's scopes; it acts for one installed account.
 * - 'developerKey': the developer API key (`?hapikey=`) of the developer account that owns the path's {appId};
 *   it manages what the app shares across every installing account. Access tokens are refused (401).
 * - 'developerKeyOrToken': either; a request with a `hapikey` parameter is judged by the key alone.
 */
export type RouteAuth = 'token' | 'developerKey' | 'developerKeyOrToken';

/** Secrets a function may read; only the token route reads the signing key. */
export type SecretName = 'signingKey' | 'sessionSecret';

export interface Route {
  /** Unique camelCase name; also the function's logical id. */
  readonly name: string;
  readonly method: HttpMethod;
  /** API Gateway path with {param} segments, or '$default' for the catch-all. */
  readonly path: string;
  /** Handler file, relative to the project root; it exports `handler`. */
  readonly entry: string;
  /** 'public', or the scopes of which the access token must hold at least one ([] on 'developerKey' routes). */
  readonly scopes: 'public' | readonly string[];
  /** Ignored for public routes; 'token' when absent. Developer-key routes have an {appId} path parameter. */
  readonly auth?: RouteAuth;
  /** The one body parser of the route. */
  readonly body: 'json' | 'urlencoded' | 'none';
  readonly table: TableAccess;
  readonly secrets?: readonly SecretName[];
  /**
   * Which limit counts calls made with an access token: 'install' (the default: N per rolling 10 s
   * per app and account), 'search' (M per second per account, not counted in N) or 'none'.
   */
  readonly rateLimit?: 'install' | 'search' | 'none';
  /**
   * Browser pages answer errors as HTML; everything else as the JSON error object, which the
   * OAuth token endpoint ('oauth') extends with RFC 6749's `error` and `error_description` on every error.
   */
  readonly format?: 'json' | 'html' | 'oauth';
}

/**
 * Whether a row takes OAuth access tokens (every non-public row but the developer-key-only ones).
 * Each such call passes the install check of shared/http/auth.ts, so the stack grants exactly these
 * functions GetItem on the install states (lib/route-stack.ts).
 */
export function takesAccessTokens(route: Pick<Route, 'scopes' | 'auth'>): boolean {
  return route.scopes !== 'public' && route.auth !== 'developerKey';
}
