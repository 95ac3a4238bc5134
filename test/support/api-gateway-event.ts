import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { matchRoute } from '../../local/local-gateway';
import { routeKeyOf, type RouteSpelling } from '../../shared/base/route-types';

export interface RequestSpec {
  method: string;
  /** Path and optional query string, e.g. `/oauth/authorize?client_id=x`. */
  url: string;
  headers?: Record<string, string>;
  body?: string;
}

/**
 * The API Gateway HTTP API (payload 2.0) event the deployed API sends for a request: route key,
 * path parameters and the comma-joined query parameters. Routing is the local gateway's
 * matchRoute, so the event names the same route (and spelling) the gateway would dispatch to.
 */
export function apiGatewayEvent(request: RequestSpec): { route: RouteSpelling; event: APIGatewayProxyEventV2 } {
  const queryIndex = request.url.indexOf('?');
  const rawPath = queryIndex < 0 ? request.url : request.url.slice(0, queryIndex);
  const rawQueryString = queryIndex < 0 ? '' : request.url.slice(queryIndex + 1);
  const matched = matchRoute(request.method, rawPath);
  if (!matched) throw new Error(`no route for ${request.method} ${rawPath}`);
  const routeKey = routeKeyOf(matched.route);
  const query: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(rawQueryString))
    query[name] = name in query ? `${query[name]},${value}` : value;
  const headers = Object.fromEntries(
    Object.entries(request.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
  );
  const now = new Date();
  return {
    route: matched.route,
    event: {
      version: '2.0',
      routeKey,
      rawPath,
      rawQueryString,
      headers,
      queryStringParameters: rawQueryString === '' ? undefined : query,
      pathParameters: matched.pathParameters,
      requestContext: {
        accountId: '000000000000',
        apiId: 'bundle-test',
        domainName: headers.host ?? 'localhost',
        domainPrefix: 'bundle-test',
        http: {
          method: request.method,
          path: rawPath,
          protocol: 'HTTP/1.1',
          sourceIp: '127.0.0.1',
          userAgent: headers['user-agent'] ?? '',
        },
        requestId: randomUUID(),
        routeKey,
        stage: '$default',
        time: now.toISOString(),
        timeEpoch: now.getTime(),
      },
      body: request.body === undefined || request.body === '' ? undefined : request.body,
      isBase64Encoded: false,
    },
  };
}
