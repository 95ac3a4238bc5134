export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'ANY';

/** What the function may do with the table; the stack grants exactly this. */
export type TableAccess = 'none' | 'read' | 'readwrite';

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
  /** 'public', or the scopes of which the access token must hold at least one. */
  readonly scopes: 'public' | readonly string[];
  /** The one body parser of the route. */
  readonly body: 'json' | 'urlencoded' | 'none';
  readonly table: TableAccess;
  readonly secrets?: readonly SecretName[];
  /**
   * Which limit counts calls made with an access token: 'install' (the default: N per rolling 10 s
   * per app and account), 'search' (M per second per account, not counted in N) or 'none'.
   */
  readonly rateLimit?: 'install' | 'search' | 'none';
  /** Browser pages answer errors as HTML; everything else as the JSON error object. */
  readonly format?: 'json' | 'html';
}
