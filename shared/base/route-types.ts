export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'ANY';

/** What the function may do with the table; the stack grants exactly this. */
export type TableAccess = 'none' | 'read' | 'readwrite';

/**
 * How a caller of a non-public route proves who it is:
 * - 'token' (the default): a bearer OAuth access token holding one of the row's scopes; it acts for one installed account.
 * - 'developerKey': the developer API key (`?hapikey=`) of the developer account that owns the path's {appId};
 *   it manages what the app shares across every installing account. Access tokens are refused (401).
 * - 'developerKeyOrToken': either; a request with a `hapikey` parameter is judged by the key alone.
 * - 'developerAccount': the developer API key alone, acting for its developer account (no {appId}
 *   in the path): the sandbox controls, whose rows find what the account may touch themselves
 *   (another developer's test account answers 404). Access tokens are refused (401).
 * - 'appToken': the app's own token from the client-credentials grant (the webhooks journal), holding
 *   one of the row's scopes (shared/http/app-token-auth.ts); it acts for the app, for no one account.
 *   An account's access token and a developer API key are refused (401).
 */
export type RouteAuth = 'token' | 'developerKey' | 'developerKeyOrToken' | 'developerAccount' | 'appToken';

/** Secrets a function may read; only the token route reads the signing key. */
export type SecretName = 'signingKey' | 'sessionSecret';

/** Requests per second and burst, as API Gateway throttles them. */
export interface Throttle {
  rateLimit: number;
  burstLimit: number;
}

/**
 * Another path the row's function serves, with the row's method and everything else of the row:
 * HubSpot publishes some endpoints under two spellings (a versioned path and its alias, the SDK's
 * path and the published spec's). The stack adds one HTTP API route per alias to the row's
 * function, and the local gateway dispatches the alias to it.
 */
export interface RouteAlias {
  /**
   * Names the spelling: the construct id of its HTTP API route (so a spelling that once had a row of
   * its own keeps its route's logical id, and a deploy updates that route in place instead of
   * creating a second one with the same route key) and, in the tests generated from the table, its
   * label and fixture.
   */
  readonly name: string;
  /** API Gateway path with {param} segments: the same parameters as the row's path. */
  readonly path: string;
}

/**
 * A row of the route table: one function, served on its path and on each of its aliases.
 * `Partition` is the name of a table partition (shared/db/keys.ts); the table checks its rows
 * with `Route<PartitionName>`, so a misspelled partition does not compile.
 */
export interface Route<Partition extends string = string> {
  /** Unique camelCase name; also the function's logical id. */
  readonly name: string;
  readonly method: HttpMethod;
  /** API Gateway path with {param} segments, or '$default' for the catch-all. */
  readonly path: string;
  /** Other spellings of the path, served by the same function. */
  readonly aliases?: readonly RouteAlias[];
  /** Handler file, relative to the project root; it exports `handler`. */
  readonly entry: string;
  /** 'public', or the scopes of which the access token must hold at least one ([] on 'developerKey' routes). */
  readonly scopes: 'public' | readonly string[];
  /** Ignored for public routes; 'token' when absent. Developer-key routes have an {appId} path parameter. */
  readonly auth?: RouteAuth;
  /** The one body parser of the route. */
  readonly body: 'json' | 'urlencoded' | 'none';
  readonly table: TableAccess;
  /**
   * The table partitions the function may touch: the stack turns them into an IAM
   * `dynamodb:LeadingKeys` condition (lib/route-stack.ts), so a function reaches only these
   * partitions even with a bug in its code. Traced from the repositories each handler calls; the
   * test in test/lib/route-partitions.test.ts fails when a route's shipped bundle can build a key in
   * a partition not listed here. A row with table access 'none' lists none. Every row that takes
   * access tokens also gets GetItem on the install states (the auth step's install check) and, when
   * rate limited, the limiter's UpdateItem by rule in lib/route-stack.ts: not listed here.
   */
  readonly partitions: readonly Partition[];
  readonly secrets?: readonly SecretName[];
  /**
   * Which limit counts calls made with an access token: 'install' (the default: N per rolling 10 s
   * per app and account), 'search' (M per second per account, not counted in N) or 'none'.
   */
  readonly rateLimit?: 'install' | 'search' | 'none';
  /**
   * An API Gateway throttle of the row's own (on each of its spellings) instead of the stage's
   * default: each route key gets its own bucket, so a flood of one neither shares nor exhausts the
   * stage's default.
   */
  readonly throttle?: Throttle;
  /**
   * Browser pages answer errors as HTML; everything else as the JSON error object, which the
   * OAuth token endpoint ('oauth') extends with RFC 6749's `error` and `error_description` on every error.
   */
  readonly format?: 'json' | 'html' | 'oauth';
  /**
   * A control of test accounts (`/sandbox/v1`): served by `npm start`, and deployed only when the CDK
   * context `sandboxControls` is true (otherwise the route does not exist).
   */
  readonly sandbox?: true;
  /**
   * The function posts webhook batches itself (the sandbox controls' flush): deployed, it gets the
   * delivery queues' URLs, SendMessage on them and the seal key, as the delivery function has (lib/webhook-pipeline.ts).
   */
  readonly deliversWebhooks?: true;
  /**
   * The function starts jobs (shared/jobs: a DYNAMIC list's evaluation): deployed, it gets the job
   * queue's URL and SendMessage on it (lib/job-pipeline.ts).
   */
  readonly startsJobs?: true;
  /**
   * The function's timeout in seconds when not the default (defaultFunctionTimeoutSeconds): at most
   * 29, inside the 30 s an HTTP API waits for its integration. The local gateway gives the handler the same.
   */
  readonly timeoutSeconds?: number;
}

/** Every route function's timeout unless its row names one. */
export const defaultFunctionTimeoutSeconds = 10;

/** A route function's timeout in seconds. */
export const functionTimeoutSecondsOf = (route: Pick<Route, 'timeoutSeconds'>): number =>
  route.timeoutSeconds ?? defaultFunctionTimeoutSeconds;

/**
 * A row as served on one of its paths: the row (its name is the function's) with `path` set to the
 * spelling's, and `spelling` naming it (the row's name on its own path, the alias's name on an alias).
 */
export interface RouteSpelling<Partition extends string = string> extends Route<Partition> {
  readonly spelling: string;
}

/**
 * The dated API versions (HubSpot's `/api-name/YYYY-MM/...` paths) a `{version}` path parameter may
 * name: a spelling with `{version}` serves each of them, and any other value answers 404 as an unknown
 * path does, before the row's auth (shared/http/middlewares.ts checkVersion). A spelling that exists in
 * one dated version only spells it out (`/webhooks/2026-03/...`, `/app-webhooks/2026-09/...`).
 */
export const datedVersions = ['2026-03', '2026-09'] as const;
export type DatedVersion = (typeof datedVersions)[number];

export const isDatedVersion = (value: unknown): value is DatedVersion =>
  typeof value === 'string' && (datedVersions as readonly string[]).includes(value);

/** Whether one of the row's spellings has a `{version}` path parameter (its chain checks the value). */
export const servesVersionParameter = (route: Pick<Route, 'path' | 'aliases'>): boolean =>
  route.path.includes('{version}') || (route.aliases ?? []).some((alias) => alias.path.includes('{version}'));

/**
 * Whether a spelling is the dated twin of its row's numbered path (an alias named `<row>Dated` or
 * `<row>Dated202609`): it answers as the row's own path does, but for the differences of the versions
 * page (docs/versions.md).
 */
export const isDatedTwin = (spelling: Pick<RouteSpelling, 'name' | 'spelling'>): boolean =>
  spelling.spelling === `${spelling.name}Dated` || spelling.spelling === `${spelling.name}Dated202609`;

/** The row on its own path, then on each alias, in order: every path the row's function serves. */
export function spellingsOf<Partition extends string>(route: Route<Partition>): RouteSpelling<Partition>[] {
  return [
    { ...route, spelling: route.name },
    ...(route.aliases ?? []).map((alias) => ({ ...route, path: alias.path, spelling: alias.name })),
  ];
}

/**
 * The spelling of a row a route key's path names. A further HTTP API behind a custom domain
 * (lib/api-shards.ts) has its routes without their API mapping key (`/{version}/{objectType}` for
 * `/crm/objects/{version}/{objectType}`): the spelling is then the one whose path ends with it.
 */
export function spellingPathOf(route: Route, routeKeyPath: string): string {
  const paths = spellingsOf(route).map((spelling) => spelling.path);
  return (
    paths.find((path) => path === routeKeyPath) ??
    paths.find((path) => routeKeyPath.startsWith('/') && path.endsWith(routeKeyPath)) ??
    route.path
  );
}

/** The HTTP API route key of a spelling (or of a row on its own path). */
export function routeKeyOf(route: Pick<Route, 'method' | 'path'>): string {
  return route.path === '$default' ? '$default' : `${route.method} ${route.path}`;
}

/**
 * Whether a row takes OAuth access tokens of an account (every non-public row but the developer-key-only
 * ones and the app-token ones).
 * Each such call passes the install check of shared/http/auth.ts, so the stack grants exactly these
 * functions GetItem on the install states (lib/route-stack.ts).
 */
export function takesAccessTokens(route: Pick<Route, 'scopes' | 'auth'>): boolean {
  return (
    route.scopes !== 'public' &&
    route.auth !== 'developerKey' &&
    route.auth !== 'developerAccount' &&
    route.auth !== 'appToken'
  );
}

/** Whether a row takes the app's client-credentials token (and nothing else): its auth is appToken. */
export function takesAppTokens(route: Pick<Route, 'scopes' | 'auth'>): boolean {
  return route.scopes !== 'public' && route.auth === 'appToken';
}

/** Whether a row takes developer API keys (`hapikey`): its auth is developerKey, developerKeyOrToken or developerAccount. */
export function takesDeveloperKeys(route: Pick<Route, 'scopes' | 'auth'>): boolean {
  return route.scopes !== 'public' && route.auth !== undefined && route.auth !== 'token' && route.auth !== 'appToken';
}

/**
 * Whether a route's calls are counted: every row called with an access token (developer-key-only
 * rows and public rows are not), unless the row opts out with rateLimit 'none'. The stack grants
 * exactly these functions the limiter's UpdateItem (lib/route-stack.ts). Here, apart from the
 * limiter (shared/limits/rate-limits.ts): the CDK app reads it, and must not load the limiter's
 * DynamoDB client, whose configuration exists only in a function.
 */
export function isRateLimited(route: Pick<Route, 'scopes' | 'auth' | 'rateLimit'>): boolean {
  return takesAccessTokens(route) && route.rateLimit !== 'none';
}

/** The path parameters that name object types (a custom type among them is loaded for the request: shared/http/path-object-types.ts). */
export const objectTypeParameters = ['objectType', 'fromObjectType', 'toObjectType'] as const;

/** Whether a row's path, or one of its aliases, names an object type. */
export function namesObjectTypes(route: Pick<Route, 'path' | 'aliases'>): boolean {
  return [route.path, ...(route.aliases ?? []).map((alias) => alias.path)].some((path) =>
    objectTypeParameters.some((name) => path.includes(`{${name}}`)),
  );
}

/**
 * The parts of a row's middy chain that only some rows use (shared/http/middlewares.ts, RouteParts):
 * a function's bundle holds those of its row and no other (bin/build-validators.ts writes the
 * module that imports them), and run from source shared/http/route-parts.ts picks them the same way.
 */
export interface ChainParts {
  bodyParser?: 'json' | 'urlencoded';
  errorFormat: NonNullable<Route['format']>;
  /** The access token's checks: signature, expiry and scopes, then the install. */
  accessTokens: boolean;
  /** The limiter's step. */
  rateLimit: boolean;
  /** The fault check: only where the stage deploys the test-account controls, for only then can an account have faults. */
  faults: boolean;
  /** The developer API key's checks. */
  developerKeys: boolean;
  /** The app token's checks (the client-credentials grant's: signature, expiry, scopes, then its grant record). */
  appTokens: boolean;
  /** The custom types the path names, loaded for the request (shared/http/path-object-types.ts). */
  pathTypes: boolean;
}

export function chainPartsOf(route: Route, stage: { sandboxControls: boolean }): ChainParts {
  return {
    ...(route.body === 'none' ? {} : { bodyParser: route.body }),
    errorFormat: route.format ?? 'json',
    accessTokens: takesAccessTokens(route),
    rateLimit: isRateLimited(route),
    faults: takesAccessTokens(route) && stage.sandboxControls,
    developerKeys: takesDeveloperKeys(route),
    appTokens: takesAppTokens(route),
    pathTypes: namesObjectTypes(route),
  };
}
