import { randomUUID } from 'node:crypto';
import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { clientKeyedRecord } from '../base/client-keys';
import { errorBody, tokenEndpointErrorBody } from '../base/error-body';
import { NotFoundError, type AppError } from '../base/errors';
import { renderErrorPage } from '../oauth/html';
import { isDatedVersion, spellingPathOf, type Route } from '../base/route-types';
import {
  authenticateRequest,
  withoutCredentials,
  type AuthContext,
  type CredentialChecks,
  type DeveloperAccountAuthContext,
  type DeveloperAuthContext,
  type RequestCredentials,
} from './auth';
import type { AppAuthContext } from './app-token-auth';
import { WriteHeldError } from '../db/repository-errors';
import { withWriteGuard } from '../db/write-guard';
import { toAppError } from './error-mapper';
import { faultError, injectedFault } from './fault-injection';
import { logger } from './logger';
import { limitCall } from './rate-limit';
import { pageHeaders, type HttpResult } from './responses';
import { serialize, serializeError } from './serialize';
import type { Location, Validator } from './validation';

/**
 * The named steps of every route's middy chain, in the order httpHandler (http-handler.ts) uses them;
 * this is the one description of that order:
 *
 *   correlate -> checkVersion -> normalizeHeaders -> authenticate -> injectFaults -> limitRate -> parseBody -> validate -> (handler) -> serializeResult, mapErrors
 *
 * correlate: the correlation id and one log line per request; checkVersion: a `{version}` path
 * parameter names a served dated version (404 otherwise; only rows with such a spelling); authenticate: the row's auth (401, and
 * 403 for missing scopes); injectFaults: a test account's injected fault answers instead of the
 * route (shared/http/fault-injection.ts), before anything else is done, a reset or delete holding the account
 * answers 503 or 401, and the handler's writes then run in the account's write guard
 * (shared/db/write-guard.ts); limitRate: an access token's call counted (429 over the limit); parseBody:
 * the row's one parser; validate: the path, the developer key's app, the query, the body.
 *
 * `before` hooks run in that order, so a request without valid credentials is refused (401) before
 * its body is parsed (no 415 or malformed-JSON 400 for an anonymous caller), and a call over its
 * rate limit is refused (429) before its body is parsed or any of the route's own work starts;
 * a call within it is counted whatever comes next (a 400 too). middy runs `after` and `onError`
 * hooks in reverse: serializeResult turns the handler's HttpResult into the API Gateway result first;
 * mapErrors, the last of the chain, turns anything thrown into the error response before correlate
 * logs the outcome. Both put the limiter's headers on the answer. Each step is a plain middy
 * middleware object with named hooks (middy's timing plugins report them by name).
 */
export type Event = APIGatewayProxyEventV2 & { body?: unknown };

/** What runs a handler with the object types its request names in view (shared/http/path-object-types.ts loadPathTypes). */
export type TypeLoader = (
  auth: unknown,
  event: Event,
  query: unknown,
  run: () => Promise<HttpResult>,
) => Promise<HttpResult>;
export type Result = APIGatewayProxyStructuredResultV2;
export type Middleware = MiddlewareObj<Event, Result>;

/**
 * A route's row and the parts of its chain that only some rows use. httpHandler takes them from
 * `#route-parts`: in a function's bundle, the module bin/build-validators.ts writes for its route,
 * which imports only the parts its row uses (lib/bundling.ts aliases the import to it); run from
 * source (tests, npm start), shared/http/route-parts.ts, which picks them by the row.
 */
export interface RouteParts extends CredentialChecks {
  readonly row: Route;
  /** The row's one body parser (jsonBodyParser, shared/http/json-body-parser.ts, or middy's urlencoded parser); none when the row's body is 'none'. */
  readonly bodyParser?: () => object;
  /** The row's error format: jsonErrorResponse, oauthErrorResponse or htmlErrorResponse. */
  readonly errorResponse: ErrorResponse;
  /** The limiter's step: on rows whose calls are counted. */
  readonly limitRate?: (route: Route) => Middleware;
  /** The fault check: on rows that take access tokens, on a stage that deploys the test-account controls. */
  readonly injectFaults?: (route: Route) => Middleware;
  /** Runs the handler with the custom types the path names in view: on rows whose path names an object type. */
  readonly typeLoader?: TypeLoader;
  /** The validator of one of the row's schemas (precompiled in a bundle, compiled with ajv from source). */
  readonly validator: (schema: object, location: Location) => Validator;
}

/** What the steps learn about one request; keyed by the event object, which every step and the handler share. */
export interface RequestState {
  correlationId: string;
  startedAt: number;
  credentials?: RequestCredentials;
  /** The query without credentials (a developer API key is never a parameter). */
  query: Record<string, string | undefined>;
  auth?: AuthContext | DeveloperAuthContext | DeveloperAccountAuthContext | AppAuthContext;
  /** The error the client got, for the log. */
  error?: AppError;
  /** X-HubSpot-RateLimit-* of a limited call: on its answer, success or error. */
  rateLimitHeaders?: Record<string, string>;
  /** The injected fault that answered the call (a test account's): logged as the request's outcome, not as a failure. */
  faultId?: string;
  /** A test account's token: runs the handler with its writes inside the account's write guard (shared/db/write-guard.ts). */
  writeGuard?: <T>(work: () => Promise<T>) => Promise<T>;
}

const states = new WeakMap<object, RequestState>();

/** The state of a request; created by the first step that asks (correlate, in the chain). */
export function requestStateOf(event: Event): RequestState {
  let state = states.get(event);
  if (!state) {
    state = {
      correlationId: randomUUID(),
      startedAt: performance.now(),
      query: { ...(event.queryStringParameters ?? {}) },
    };
    states.set(event, state);
  }
  return state;
}

const headersOf = (event: Event) => (event.headers ?? {}) as Record<string, string | undefined>;

/** Gives the request its correlation id and logs one line per request (an error line with the cause for a 5xx). */
export function correlate(route: Route): Middleware {
  const logOutcome = (event: Event, statusCode: number, state: RequestState, category?: string) => {
    logger.info('request', {
      correlationId: state.correlationId,
      route: route.name,
      method: event.requestContext?.http?.method,
      statusCode,
      ...(category ? { category } : {}),
      ...(state.faultId ? { faultId: state.faultId } : {}),
      durationMs: Math.round(performance.now() - state.startedAt),
    });
  };
  return {
    before: function correlateBefore(request) {
      requestStateOf(request.event);
    },
    after: function correlateAfter(request) {
      if (!request.response) return;
      logOutcome(request.event, request.response.statusCode ?? 200, requestStateOf(request.event));
    },
    onError: function correlateOnError(request) {
      const state = requestStateOf(request.event);
      const error = state.error ?? toAppError(request.error);
      // The status the client got (the token endpoint answers 400 where others answer 415).
      const statusCode = request.response?.statusCode ?? error.status;
      // An injected fault and a test account's write hold are answers the caller asked for, not failures.
      if (statusCode < 500 || state.faultId !== undefined || error.cause instanceof WriteHeldError) {
        logOutcome(request.event, statusCode, state, error.category);
        return;
      }
      const cause = request.error;
      const underlying = error.cause ?? cause;
      logger.error('request failed', {
        correlationId: state.correlationId,
        route: route.name,
        statusCode,
        errorName: cause instanceof Error ? cause.name : typeof cause,
        errorMessage: cause instanceof Error ? cause.message : undefined,
        stack: cause instanceof Error ? cause.stack : undefined,
        ...(underlying !== cause && underlying instanceof Error
          ? { causeName: underlying.name, causeMessage: underlying.message }
          : {}),
      });
    },
  };
}

/**
 * A `{version}` path parameter names a dated version the service serves (datedVersions), or the
 * request answers 404 as an unknown path does, before anything else: an unknown version is an
 * unknown path, whoever asks.
 */
export function checkVersion(): Middleware {
  return {
    before: function checkVersionBefore(request) {
      const version = request.event.pathParameters?.version;
      if (version !== undefined && !isDatedVersion(version)) throw new NotFoundError('resource not found');
    },
  };
}

/**
 * Lower-cases header names (API Gateway already does; direct invocations may not), into a map
 * without a prototype: a header named `__proto__` is a header like any other. What middy's header
 * normalizer does by default, without its canonical-case table (1.3 KiB of every bundle).
 */
export function normalizeHeaders(): Middleware {
  return {
    before: function normalizeHeadersBefore(request) {
      const headers = request.event.headers;
      if (!headers) return;
      const normalized = clientKeyedRecord<string | undefined>();
      for (const [name, value] of Object.entries(headers)) normalized[name.toLowerCase()] = value;
      request.event.headers = normalized;
    },
  };
}

/**
 * Applies the route row's auth (bearer token with its scopes, or developer API key; see RouteAuth)
 * from the headers and query alone: 401 and missing-scope 403 come before anything is parsed.
 */
export function authenticate(route: Route, checks: CredentialChecks): Middleware {
  return {
    before: async function authenticateBefore(request) {
      const state = requestStateOf(request.event);
      state.credentials = await authenticateRequest(route, headersOf(request.event), state.query, checks);
      state.query = withoutCredentials(route, state.query);
    },
  };
}

/** The route's one body parser ('json' or 'urlencoded'); a route with body 'none' has none. */
export function parseBody(bodyParser: (() => object) | undefined): Middleware {
  const before = (bodyParser?.() as Middleware | undefined)?.before;
  if (!before) return {};
  return {
    before: function parseBodyBefore(request) {
      return before(request);
    },
  };
}

export interface RouteValidators {
  path?: Validator;
  query?: Validator;
  body?: Validator;
}

/**
 * Validates the path, finishes authentication with it (a developer key must own the path's app:
 * 403), then validates the query and the parsed body.
 */
export function validate(route: Route, validators: RouteValidators): Middleware {
  return {
    before: function validateBefore(request) {
      const state = requestStateOf(request.event);
      const path = request.event.pathParameters ?? {};
      validators.path?.(path);
      state.auth = state.credentials?.forPath(path);
      validators.query?.(state.query);
      if (route.body !== 'none') validators.body?.(request.event.body);
    },
  };
}

/**
 * The path the client asked for: the raw path when the spelling's route matches it, else (a path an
 * API mapping key was taken from before it reached the route) the spelling with the path's parameters
 * filled in.
 */
export function requestPathOf(
  spellingPath: string,
  rawPath: string,
  parameters: Record<string, string | undefined>,
): string {
  if (spellingPath === '$default') return rawPath;
  const pattern = new RegExp(
    `^${spellingPath
      .split('/')
      .map((segment) => (segment.startsWith('{') ? '[^/]+' : segment.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
      .join('/')}/?$`,
  );
  if (pattern.test(rawPath)) return rawPath;
  return spellingPath.replace(/\{([^}]+)\}/g, (whole, name: string) =>
    parameters[name] === undefined ? whole : encodeURIComponent(parameters[name] ?? ''),
  );
}

/**
 * A call with a test account's access token that a fault injected by the sandbox controls matches
 * answers the fault's error (after its delay) and does nothing else: not counted by the limiter,
 * its body not parsed, the handler never started. Other callers pass at no cost (the token's claim says).
 */
export function injectFaults(route: Route): Middleware {
  return {
    before: async function injectFaultsBefore(request) {
      const state = requestStateOf(request.event);
      const token = state.credentials?.token;
      if (!token?.isTestAccount) return;
      state.writeGuard = (work) => withWriteGuard(token.hubId, work);
      const event = request.event;
      const routeKey = event.routeKey ?? '';
      const routePath = routeKey.includes(' ')
        ? spellingPathOf(route, routeKey.slice(routeKey.indexOf(' ') + 1))
        : route.path;
      const fault = await injectedFault(token, {
        method: event.requestContext?.http?.method ?? route.method,
        routePath,
        rawPath: requestPathOf(routePath, event.rawPath ?? '', event.pathParameters ?? {}),
      });
      if (!fault) return;
      state.faultId = fault.id;
      if (fault.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
      throw faultError(fault, token);
    },
  };
}

/**
 * Counts a call made with an access token (shared/http/rate-limit.ts: one DynamoDB UpdateItem, or
 * none when this instance holds a leased permit) and waits for the decision, on every route, reads
 * included: a call over the limit gets its 429 before its body is parsed and before the handler
 * starts, so it costs the backend nothing beyond the limiter's own update. The token is known from
 * authentication alone, so a call that then fails parsing or validation is counted too.
 */
export function limitRate(route: Route): Middleware {
  return {
    before: async function limitRateBefore(request) {
      const state = requestStateOf(request.event);
      state.rateLimitHeaders = await limitCall(route, state.credentials?.token);
    },
  };
}

/**
 * Turns the handler's HttpResult into the API Gateway result, with the correlation id and nosniff
 * on every answer, and the limiter's headers (the handler's own headers win).
 */
export function serializeResult(): Middleware {
  return {
    after: function serializeResultAfter(request) {
      const result = request.response as unknown as HttpResult | undefined;
      if (!result) return;
      const state = requestStateOf(request.event);
      request.response = serialize(
        state.rateLimitHeaders ? { ...result, headers: { ...state.rateLimitHeaders, ...result.headers } } : result,
        state.correlationId,
      );
    },
  };
}

/** The response of an error, in one of the formats a row can answer errors in. */
export type ErrorResponse = (error: AppError, state: RequestState) => Result;

/** The error object (shared/base/error-body.ts), with the limiter's headers. */
export const jsonErrorResponse: ErrorResponse = (error, state) => {
  const mapped = errorBody(error, state.correlationId);
  return serializeError({ ...mapped, headers: { ...state.rateLimitHeaders, ...mapped.headers } }, state.correlationId);
};

/** The token endpoint's error object: RFC 6749's `error` and `error_description` besides the fields of every error. */
export const oauthErrorResponse: ErrorResponse = (error, state) => {
  const mapped = tokenEndpointErrorBody(error, state.correlationId);
  return serializeError({ ...mapped, headers: { ...state.rateLimitHeaders, ...mapped.headers } }, state.correlationId);
};

/** An error page, for the browser pages. */
export const htmlErrorResponse: ErrorResponse = (error, state) =>
  serialize(
    {
      statusCode: errorBody(error, state.correlationId).statusCode,
      html: renderErrorPage('Something went wrong', error.message),
      headers: { ...pageHeaders },
    },
    state.correlationId,
  );

/**
 * The one mapping from anything thrown to a response, in the row's error format (RouteParts): the
 * error object, the token endpoint's RFC 6749 variant on 'oauth' routes, an error page on 'html' routes.
 */
export function mapErrors(errorResponse: ErrorResponse): Middleware {
  return {
    onError: function mapErrorsOnError(request) {
      const state = requestStateOf(request.event);
      const error = toAppError(request.error);
      state.error = error;
      request.response = errorResponse(error, state);
    },
  };
}
