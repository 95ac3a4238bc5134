import { randomUUID } from 'node:crypto';
import middy, { type MiddlewareObj } from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import httpUrlencodeBodyParser from '@middy/http-urlencode-body-parser';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import { config } from '../config';
import { findRoute, type RouteByName, type RouteName } from '../routes';
import { authenticateRequest, withoutCredentials, type AuthContext, type DeveloperAuthContext } from './auth';
import { errorBody, toAppError, tokenEndpointErrorBody } from './error-body';
import { pageHeaders, renderErrorPage } from './html';
import { logger } from './logger';
import type { HttpResult } from './responses';
import { compileValidator, type Validator } from './validation';
import { clientKeyedRecord } from '../client-keys';

/** A JSON schema that carries the type of the values it accepts; build one with typedSchema(). */
export interface TypedSchema<T> {
  readonly schema: object;
  readonly type?: T;
}

/** Derives the TypeScript type from the schema once, where the schema is defined. */
export function typedSchema<const S extends JSONSchema>(schema: S): TypedSchema<FromSchema<S>> {
  return { schema: schema as object };
}

export interface Schemas {
  body?: TypedSchema<unknown>;
  query?: TypedSchema<unknown>;
  path?: TypedSchema<unknown>;
}

type Infer<S extends Schemas, K extends keyof Schemas> = S[K] extends TypedSchema<infer T> ? T : undefined;
type AuthFor<N extends RouteName> = RouteByName<N>['scopes'] extends 'public' ? undefined
  : RouteByName<N> extends { auth: 'developerKey' } ? DeveloperAuthContext
  : RouteByName<N> extends { auth: 'developerKeyOrToken' } ? AuthContext | DeveloperAuthContext
  : AuthContext;

export interface HttpRequest<N extends RouteName, S extends Schemas> {
  body: Infer<S, 'body'>;
  query: Infer<S, 'query'>;
  path: Infer<S, 'path'>;
  auth: AuthFor<N>;
  /** Lower-cased header names. */
  headers: Record<string, string | undefined>;
  cookies: Record<string, string>;
  correlationId: string;
  /** Scheme and host the client used, for absolute links (paging, redirects). */
  baseUrl: string;
  rawQueryString: string;
}

type Event = APIGatewayProxyEventV2 & { body?: unknown };

interface State {
  correlationId: string;
  startedAt: number;
}

const jsonContentType = 'application/json;charset=utf-8';

function parseCookies(cookies: string[] | undefined): Record<string, string> {
  const jar = clientKeyedRecord<string>();
  for (const cookie of cookies ?? []) {
    for (const part of cookie.split(';')) {
      const index = part.indexOf('=');
      if (index <= 0) continue;
      const name = part.slice(0, index).trim();
      if (!(name in jar)) jar[name] = part.slice(index + 1).trim();
    }
  }
  return jar;
}

/** Hosts only a local runtime (the local gateway, sam local) puts in requestContext.domainName: served over plain HTTP. */
const loopbackHost = /^(127\.0\.0\.1|localhost|\[::1\])(:\d{1,5})?$/;

/**
 * The configured public base URL, else the domain API Gateway received the request on (set by
 * the gateway, not by the client). The Host and X-Forwarded-* headers are the client's to choose,
 * so a link built from them could point anywhere.
 */
function baseUrlOf(event: Event): string {
  if (config.publicBaseUrl) return config.publicBaseUrl;
  const host = event.requestContext?.domainName ?? 'localhost';
  const stage = event.requestContext?.stage;
  return `${loopbackHost.test(host) ? 'http' : 'https'}://${host}${stage && stage !== '$default' ? `/${stage}` : ''}`;
}

function serialize(result: HttpResult, correlationId: string): APIGatewayProxyStructuredResultV2 {
  // nosniff on every answer, errors included: a browser must never read a JSON body (which may
  // echo client text) as HTML or script.
  const headers: Record<string, string> = { 'x-hubspot-correlation-id': correlationId, 'x-content-type-options': 'nosniff' };
  let body: string | undefined;
  if (result.html !== undefined) {
    Object.assign(headers, pageHeaders);
    body = result.html;
  } else if (result.body !== undefined) {
    headers['content-type'] = jsonContentType;
    body = JSON.stringify(result.body);
  }
  Object.assign(headers, result.headers);
  return { statusCode: result.statusCode, headers, body, ...(result.cookies?.length ? { cookies: result.cookies } : {}) };
}

function bodyParserFor(body: 'json' | 'urlencoded' | 'none'): MiddlewareObj<Event> | undefined {
  if (body === 'json') return httpJsonBodyParser() as unknown as MiddlewareObj<Event>;
  if (body === 'urlencoded') return httpUrlencodeBodyParser() as unknown as MiddlewareObj<Event>;
  return undefined;
}

/**
 * Builds the middy chain for one route row: correlation id and request log, header
 * normalising, the route's body parser, validation of path, query and body, the route's auth
 * (bearer token with its scopes, or developer API key; see RouteAuth), and the one mapping from error to response.
 */
export function httpHandler<N extends RouteName, S extends Schemas>(
  name: N,
  schemas: S,
  fn: (request: HttpRequest<N, S>) => Promise<HttpResult>,
) {
  const route = findRoute(name);
  const validators: Partial<Record<keyof Schemas, Validator>> = {
    path: schemas.path ? compileValidator(schemas.path.schema, 'path', name) : undefined,
    query: schemas.query ? compileValidator(schemas.query.schema, 'query', name) : undefined,
    body: schemas.body ? compileValidator(schemas.body.schema, 'body', name) : undefined,
  };
  // Keyed by the event object, which every middleware and the handler share.
  const states = new WeakMap<object, State>();
  const stateOf = (event: object): State => {
    let state = states.get(event);
    if (!state) {
      state = { correlationId: randomUUID(), startedAt: performance.now() };
      states.set(event, state);
    }
    return state;
  };

  const observe: MiddlewareObj<Event, APIGatewayProxyStructuredResultV2> = {
    before: (request) => {
      stateOf(request.event);
    },
    after: (request) => {
      const state = stateOf(request.event);
      if (!request.response) return;
      logger.info('request', {
        correlationId: state.correlationId, route: route.name, method: request.event.requestContext?.http?.method,
        statusCode: request.response.statusCode, durationMs: Math.round(performance.now() - state.startedAt),
      });
    },
    onError: (request) => {
      const state = stateOf(request.event);
      const error = toAppError(request.error);
      const mapped = route.format === 'oauth' ? tokenEndpointErrorBody(error, state.correlationId) : errorBody(error, state.correlationId);
      if (mapped.statusCode >= 500) {
        const cause = request.error;
        logger.error('request failed', {
          correlationId: state.correlationId, route: route.name, statusCode: mapped.statusCode,
          errorName: cause instanceof Error ? cause.name : typeof cause,
          errorMessage: cause instanceof Error ? cause.message : undefined,
          stack: cause instanceof Error ? cause.stack : undefined,
        });
      } else {
        logger.info('request', {
          correlationId: state.correlationId, route: route.name, method: request.event.requestContext?.http?.method,
          statusCode: mapped.statusCode, category: error.category, durationMs: Math.round(performance.now() - state.startedAt),
        });
      }
      if (route.format === 'html') {
        request.response = serialize({ statusCode: mapped.statusCode, html: renderErrorPage('Something went wrong', error.message) }, state.correlationId);
      } else {
        request.response = serialize({ statusCode: mapped.statusCode, body: mapped.body, headers: mapped.headers }, state.correlationId);
      }
    },
  };

  const base = async (event: Event, context: Context): Promise<APIGatewayProxyStructuredResultV2> => {
    void context;
    const state = stateOf(event);
    const headers = (event.headers ?? {}) as Record<string, string | undefined>;
    const path = event.pathParameters ?? {};
    const rawQuery = { ...(event.queryStringParameters ?? {}) };
    // Authentication first: a caller without a valid token or key learns nothing about the schemas.
    const credentials = await authenticateRequest(route, headers, rawQuery);
    const query = withoutCredentials(route, rawQuery);
    validators.path?.(path);
    const auth = credentials.forPath(path);
    validators.query?.(query);
    if (route.body !== 'none') validators.body?.(event.body);
    const result = await fn({
      body: event.body as Infer<S, 'body'>,
      query: query as Infer<S, 'query'>,
      path: path as Infer<S, 'path'>,
      auth: auth as AuthFor<N>,
      headers,
      cookies: parseCookies(event.cookies),
      correlationId: state.correlationId,
      baseUrl: baseUrlOf(event),
      rawQueryString: event.rawQueryString ?? '',
    });
    return serialize(result, state.correlationId);
  };

  const chain = middy<Event, APIGatewayProxyStructuredResultV2>(base)
    .use(observe)
    .use(httpHeaderNormalizer() as unknown as MiddlewareObj<Event>);
  const parser = bodyParserFor(route.body);
  if (parser) chain.use(parser);
  return chain;
}
