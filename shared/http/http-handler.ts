import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { routePartsOf } from '#route-parts';
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import { ServiceUnavailableError } from '../base/errors';
import { servesVersionParameter, type DatedVersion } from '../base/route-types';
import type { RouteByName, RouteName } from '../routes';
import type { AppAuthContext } from './app-token-auth';
import type { AuthContext, DeveloperAccountAuthContext, DeveloperAuthContext } from './auth';
import {
  authenticate,
  checkVersion,
  correlate,
  mapErrors,
  normalizeHeaders,
  parseBody,
  requestStateOf,
  serializeResult,
  validate,
  type Event,
  type Middleware,
  type Result,
} from './middlewares';
import type { HttpResult } from './responses';

/**
 * A JSON schema as an `as const` object literal (a schema module's plain export, which esbuild leaves
 * out of a bundle that does not use it); the handler's request is typed by what it accepts.
 */
export type Schema = Exclude<JSONSchema, boolean>;

export interface Schemas {
  body?: Schema;
  query?: Schema;
  path?: Schema;
}

type Infer<S extends Schemas, K extends keyof Schemas> = undefined extends S[K]
  ? undefined
  : FromSchema<NonNullable<S[K]>>;
type AuthFor<N extends RouteName> = RouteByName<N>['scopes'] extends 'public'
  ? undefined
  : RouteByName<N> extends { auth: 'developerKey' }
    ? DeveloperAuthContext
    : RouteByName<N> extends { auth: 'developerKeyOrToken' }
      ? AuthContext | DeveloperAuthContext
      : RouteByName<N> extends { auth: 'developerAccount' }
        ? DeveloperAccountAuthContext
        : RouteByName<N> extends { auth: 'appToken' }
          ? AppAuthContext
          : AuthContext;

export interface HttpRequest<N extends RouteName, S extends Schemas> {
  body: Infer<S, 'body'>;
  query: Infer<S, 'query'>;
  path: Infer<S, 'path'>;
  auth: AuthFor<N>;
  /** Lower-cased header names. */
  headers: Record<string, string | undefined>;
  /** The request's Cookie headers as API Gateway passes them (cookies.ts parseCookies reads them). */
  rawCookies: readonly string[];
  correlationId: string;
  /** What API Gateway says of the request (its domain and stage): base-url.ts baseUrlOf makes absolute links (paging, Location) from it. */
  requestContext: Event['requestContext'] | undefined;
  rawQueryString: string;
  /**
   * The dated version the request's path names (`/crm/objects/2026-09/...`: '2026-09'), checked
   * before the handler runs; undefined on a numbered path (`/crm/v3/...`).
   */
  version: DatedVersion | undefined;
  /**
   * When the function times out, on performance.now()'s clock (Infinity where the runtime gives no
   * deadline): work that must answer with what it did (a batch) stops starting new work well before it.
   */
  deadlineMs: number;
}

/**
 * middy's early timeout: it answers just before the runtime would stop the function. The handler's
 * work may still finish or be retried, so the answer is a 503 with Retry-After, as every "retry"
 * 503 of the service.
 */
function timeoutEarlyResponse(): never {
  throw new ServiceUnavailableError('The request did not finish within the function time. Retry the request.', {
    headers: { 'retry-after': '1' },
  });
}

/**
 * Builds the middy chain for one route row from the named steps of middlewares.ts, in the order
 * (and for the reasons) described at the top of that file, with the parts the row uses (RouteParts).
 */
export function httpHandler<N extends RouteName, S extends Schemas>(
  name: N,
  schemas: S,
  fn: (request: HttpRequest<N, S>) => Promise<HttpResult>,
) {
  const parts = routePartsOf(name);
  const route = parts.row;
  const validators = {
    path: schemas.path ? parts.validator(schemas.path, 'path') : undefined,
    query: schemas.query ? parts.validator(schemas.query, 'query') : undefined,
    body: schemas.body ? parts.validator(schemas.body, 'body') : undefined,
  };
  const typeLoader = parts.typeLoader;

  const handle = async (event: Event, context: Context): Promise<HttpResult> => {
    const remainingMs =
      typeof context?.getRemainingTimeInMillis === 'function'
        ? context.getRemainingTimeInMillis()
        : Number.POSITIVE_INFINITY;
    const state = requestStateOf(event);
    const run = () =>
      fn({
        body: event.body as Infer<S, 'body'>,
        query: state.query as Infer<S, 'query'>,
        path: (event.pathParameters ?? {}) as Infer<S, 'path'>,
        auth: state.auth as AuthFor<N>,
        headers: (event.headers ?? {}) as Record<string, string | undefined>,
        rawCookies: event.cookies ?? [],
        correlationId: state.correlationId,
        requestContext: event.requestContext,
        rawQueryString: event.rawQueryString ?? '',
        version: event.pathParameters?.version as DatedVersion | undefined,
        deadlineMs: performance.now() + remainingMs,
      });
    const work = () => (typeLoader ? typeLoader(state.auth, event, state.query, run) : run());
    return state.writeGuard ? state.writeGuard(work) : work();
  };

  const steps: Middleware[] = [
    correlate(route),
    servesVersionParameter(route) ? checkVersion() : {},
    normalizeHeaders(),
    authenticate(route, parts),
    parts.injectFaults?.(route) ?? {},
    parts.limitRate?.(route) ?? {},
    parseBody(parts.bodyParser),
    validate(route, validators),
    serializeResult(),
    mapErrors(parts.errorResponse),
  ];
  const chain = middy<Event, Result>(handle as unknown as (event: Event, context: Context) => Promise<Result>, {
    timeoutEarlyResponse,
  });
  // A step the route does without (injectFaults, limitRate, parseBody of a body 'none') has no hooks; middy refuses those.
  for (const step of steps) if (Object.keys(step).length > 0) chain.use(step);
  return chain;
}
