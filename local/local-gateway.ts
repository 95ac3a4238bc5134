import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { routeSpellings } from '../shared/routes';
import { functionTimeoutSecondsOf, routeKeyOf, type Route, type RouteSpelling } from '../shared/base/route-types';
import { clientKeyedRecord } from '../shared/base/client-keys';
import { errorBody, tokenEndpointErrorBody } from '../shared/base/error-body';
import {
  InternalError,
  NotFoundError,
  PayloadTooLargeError,
  RequestHeaderFieldsTooLargeError,
  ValidationError,
  type AppError,
} from '../shared/base/errors';
import { serializeError } from '../shared/http/serialize';

/**
 * Serves every route of the route table, on every spelling of its path, over HTTP by turning each
 * request into an API Gateway HTTP API (payload 2.0) event for that row's handler, as the deployed API does.
 */
type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

interface CompiledRoute {
  route: RouteSpelling;
  pattern: RegExp;
  paramNames: string[];
  literalSegments: number;
}

const projectRoot = path.resolve(__dirname, '..');
/** API Gateway's payload limit. */
const maxBodyBytes = 10 * 1024 * 1024;
const textContentType = /^(application\/(json|x-www-form-urlencoded|xml|[a-z.+-]*\+json)|text\/)/i;

function compile(route: RouteSpelling): CompiledRoute {
  const paramNames: string[] = [];
  let literalSegments = 0;
  const source = route.path
    .split('/')
    .map((segment) => {
      const param = /^\{([A-Za-z0-9_]+)(\+?)\}$/.exec(segment);
      if (!param) {
        literalSegments += 1;
        return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      }
      paramNames.push(param[1] ?? '');
      return param[2] === '+' ? '(.+)' : '([^/]+)';
    })
    .join('/');
  return { route, pattern: new RegExp(`^${source}$`), paramNames, literalSegments };
}

const compiled = routeSpellings.filter((route) => route.path !== '$default').map((route) => compile(route));
const fallback = routeSpellings.find((route) => route.path === '$default');

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * Like API Gateway: the most specific route wins; a known path with another method falls to $default.
 * The route is the row as served on the matched spelling (its path is the spelling's).
 * A path that matches no route with one trailing slash is matched without it, as an HTTP API does
 * (the official SDK keeps the slash whenever it adds a query: GET /crm/v3/owners/?limit=10).
 */
export function matchRoute(
  method: string,
  rawPath: string,
): { route: RouteSpelling; pathParameters?: Record<string, string> } | undefined {
  const matched = matchRoutePath(method, rawPath);
  if (matched?.route !== fallback || rawPath.length <= 1 || !rawPath.endsWith('/')) return matched;
  const withoutSlash = matchRoutePath(method, rawPath.slice(0, -1));
  return withoutSlash?.route === fallback ? matched : withoutSlash;
}

function matchRoutePath(
  method: string,
  rawPath: string,
): { route: RouteSpelling; pathParameters?: Record<string, string> } | undefined {
  let best: { entry: CompiledRoute; match: RegExpExecArray } | undefined;
  for (const entry of compiled) {
    if (entry.route.method !== method && entry.route.method !== 'ANY') continue;
    const match = entry.pattern.exec(rawPath);
    if (match && (!best || entry.literalSegments > best.entry.literalSegments)) best = { entry, match };
  }
  if (!best) return fallback ? { route: fallback } : undefined;
  const pathParameters: Record<string, string> = {};
  best.entry.paramNames.forEach((name, index) => {
    pathParameters[name] = decode(best.match[index + 1] ?? '');
  });
  return { route: best.entry.route, pathParameters: best.entry.paramNames.length > 0 ? pathParameters : undefined };
}

function parseQuery(rawQuery: string): Record<string, string> | undefined {
  if (rawQuery === '') return undefined;
  const query = clientKeyedRecord<string>();
  for (const pair of rawQuery.split('&')) {
    if (pair === '') continue;
    const index = pair.indexOf('=');
    const name = decode((index < 0 ? pair : pair.slice(0, index)).replaceAll('+', ' '));
    const value = index < 0 ? '' : decode(pair.slice(index + 1).replaceAll('+', ' '));
    // Payload 2.0 joins repeated parameters with commas.
    query[name] = name in query ? `${query[name]},${value}` : value;
  }
  return query;
}

function readBody(request: IncomingMessage): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBodyBytes) chunks.push(chunk);
    });
    request.on('end', () => resolve(size > maxBodyBytes ? 'too-large' : Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

export function toEvent(
  request: IncomingMessage,
  route: Route,
  pathParameters: Record<string, string> | undefined,
  body: Buffer,
): APIGatewayProxyEventV2 {
  const url = request.url ?? '/';
  const queryIndex = url.indexOf('?');
  const rawPath = queryIndex < 0 ? url : url.slice(0, queryIndex);
  const rawQueryString = queryIndex < 0 ? '' : url.slice(queryIndex + 1);
  const headers = clientKeyedRecord<string>();
  const cookies: string[] = [];
  for (let index = 0; index < request.rawHeaders.length; index += 2) {
    const name = (request.rawHeaders[index] ?? '').toLowerCase();
    const value = request.rawHeaders[index + 1] ?? '';
    if (name === 'cookie') {
      cookies.push(
        ...value
          .split(';')
          .map((cookie) => cookie.trim())
          .filter((cookie) => cookie !== ''),
      );
      continue;
    }
    headers[name] = name in headers ? `${headers[name]},${value}` : value;
  }
  const contentType = headers['content-type'] ?? '';
  const isText = body.length === 0 || textContentType.test(contentType);
  const now = new Date();
  const method = request.method ?? 'GET';
  return {
    version: '2.0',
    routeKey: routeKeyOf(route),
    rawPath,
    rawQueryString,
    cookies: cookies.length > 0 ? cookies : undefined,
    headers,
    queryStringParameters: parseQuery(rawQueryString),
    pathParameters,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      // The gateway's own address, as API Gateway gives its own domain: never the client's Host header.
      domainName: `127.0.0.1:${request.socket.localPort ?? 0}`,
      domainPrefix: 'local',
      http: {
        method,
        path: rawPath,
        protocol: `HTTP/${request.httpVersion}`,
        sourceIp: request.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: routeKeyOf(route),
      stage: '$default',
      time: now.toISOString(),
      timeEpoch: now.getTime(),
    },
    body: body.length === 0 ? undefined : isText ? body.toString('utf8') : body.toString('base64'),
    isBase64Encoded: !isText,
  };
}

/** The deployed function's timeout (the row's, lib/route-stack.ts); middy answers 503 just before it, as deployed. */
function lambdaContext(route: Route): Context {
  const deadline = Date.now() + functionTimeoutSecondsOf(route) * 1000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: route.name,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${route.name}`,
    memoryLimitInMB: '512',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${route.name}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

const handlers = new Map<string, Promise<Handler>>();

function loadHandler(route: Route): Promise<Handler> {
  let handler = handlers.get(route.entry);
  if (!handler) {
    handler = import(path.join(projectRoot, route.entry)).then((module: { handler?: Handler }) => {
      if (typeof module.handler !== 'function') throw new Error(`${route.entry} exports no handler`);
      return module.handler;
    });
    handlers.set(route.entry, handler);
  }
  return handler;
}

/** The gateway's own answers (before any function runs) are the same error object, from the same builder, as the functions'. */
/** The gateway's own error answers, in the error body the route's function would use (RFC 6749's on the token endpoints). */
function errorResponseOf(
  error: AppError,
  route?: Route,
): { statusCode: number; headers: Record<string, string>; body: string } {
  const correlationId = randomUUID();
  const mapped =
    route?.format === 'oauth' ? tokenEndpointErrorBody(error, correlationId) : errorBody(error, correlationId);
  const result = serializeError(mapped, correlationId);
  return {
    statusCode: result.statusCode ?? 500,
    headers: result.headers as Record<string, string>,
    body: result.body ?? '',
  };
}

/** The route a request head names, read from the raw bytes Node could not parse as a whole. */
function routeOfRawHead(rawPacket: unknown): Route | undefined {
  if (!Buffer.isBuffer(rawPacket)) return undefined;
  const end = rawPacket.indexOf('\r\n');
  const requestLine = rawPacket
    .subarray(0, end < 0 ? Math.min(rawPacket.length, 8192) : Math.min(end, 8192))
    .toString('latin1');
  const [method, target] = requestLine.split(' ');
  return method && target ? matchRoute(method, target.split('?')[0] ?? '/')?.route : undefined;
}

function sendError(response: ServerResponse, error: AppError, route?: Route): void {
  const { statusCode, headers, body } = errorResponseOf(error, route);
  response.writeHead(statusCode, headers);
  response.end(body);
}

async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = request.url ?? '/';
  const rawPath = url.split('?')[0] ?? '/';
  const matched = matchRoute(request.method ?? 'GET', rawPath);
  const body = await readBody(request);
  if (body === 'too-large')
    return sendError(response, new PayloadTooLargeError('Request entity too large'), matched?.route);
  if (!matched) return sendError(response, new NotFoundError('resource not found'));
  const event = toEvent(request, matched.route, matched.pathParameters, body);
  let result: APIGatewayProxyStructuredResultV2;
  try {
    result = await (await loadHandler(matched.route))(event, lambdaContext(matched.route));
  } catch (error) {
    // A Lambda that throws is a 500 at API Gateway; the handlers' own error mapping should prevent it.
    console.error(`handler ${matched.route.name} threw`, error);
    return sendError(response, new InternalError('internal error', { cause: error }));
  }
  const headers: Record<string, string | string[]> = { ...(result.headers as Record<string, string> | undefined) };
  if (result.cookies?.length) headers['set-cookie'] = result.cookies;
  const payload =
    result.body === undefined ? undefined : Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8');
  if (payload) headers['content-length'] = String(payload.length);
  response.writeHead(result.statusCode ?? 200, headers);
  response.end(payload);
}

export interface RunningGateway {
  server: Server;
  port: number;
  baseUrl: string;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1 only; port 0 picks a free port. */
export function startGateway(port = 0): Promise<RunningGateway> {
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      console.error('gateway failure', error);
      if (!response.headersSent) sendError(response, new InternalError('internal error', { cause: error }));
      else response.destroy();
    });
  });
  // Node answers an over-long request head (or a malformed one) itself, with an empty body;
  // answer with the error object instead, as API Gateway does with its own limits.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy();
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const { statusCode, headers, body } = errorResponseOf(
      tooLarge
        ? new RequestHeaderFieldsTooLargeError('Request header fields too large', { cause: error })
        : new ValidationError('Bad request', { cause: error }),
      routeOfRawHead((error as { rawPacket?: unknown }).rawPacket),
    );
    const head = Object.entries({ ...headers, 'content-length': String(Buffer.byteLength(body)), connection: 'close' })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.end(
      `HTTP/1.1 ${statusCode} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n${head}\r\n${body}`,
    );
  });
  server.keepAliveTimeout = 5000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      const actualPort = typeof address === 'object' && address ? address.port : port;
      resolve({
        server,
        port: actualPort,
        baseUrl: `http://127.0.0.1:${actualPort}`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
