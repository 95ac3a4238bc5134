import fc from 'fast-check';
import type { RunningGateway } from '../../bin/local-gateway';
import { routes } from '../../shared/routes';
import type { Route } from '../../shared/route-types';
import { scopeCatalog } from '../../shared/oauth/scopes';
import { signTestAccessToken, startTestGateway } from '../support/harness';

/**
 * Walks the route table and throws generated requests at every route: wrong types, missing and
 * extra fields, invalid JSON, invalid percent-encoding, 1 MB strings, deep nesting, huge arrays,
 * unicode edge cases, ids that are not ids, forged and truncated tokens. Never a 5xx; every JSON
 * error is the documented error object with a correlationId.
 */
const runsPerRoute = Number(process.env.FUZZ_RUNS_PER_ROUTE ?? 300);
const fuzzAppId = 990001;
const fuzzHubId = 990002;

let gateway: RunningGateway;
let validToken: string;
let scopelessToken: string;
let sent = 0;

beforeAll(async () => {
  gateway = await startTestGateway();
  validToken = signTestAccessToken({ appId: fuzzAppId, hubId: fuzzHubId, scopes: [...scopeCatalog] });
  scopelessToken = signTestAccessToken({ appId: fuzzAppId, hubId: fuzzHubId, scopes: [] });
});

afterAll(async () => {
  console.log(`route fuzzing: ${sent} requests over ${routes.length} routes, none answered 5xx`);
  await gateway.close();
});

const megabyte = 'x'.repeat(1024 * 1024);
const edgeStrings = fc.constantFrom(
  '', ' ', '0', '-1', '1e309', 'NaN', 'null', 'true', '00000000000000000000001', '9'.repeat(40), '\u0000', '\uD800', '\uFFFF',
  '😀'.repeat(50), 'a'.repeat(5000), '../../etc/passwd', '<script>alert(1)</script>', "'; DROP TABLE x; --", '%', '%zz', '%E0%A4%A',
  'COMPANY#1', 'HUB#1', '{"a":1}', 'hs_object_id', 'companies', '0-2',
);
const anyString = fc.oneof(fc.string({ unit: 'binary', maxLength: 40 }), edgeStrings, fc.stringMatching(/^[0-9]{1,20}$/));

/** Raw path segments, some deliberately not valid percent-encoding. */
const pathSegment = fc.oneof(
  // Lone surrogates cannot be percent-encoded; a UTF-8 round trip replaces them as a browser would.
  anyString.map((value) => encodeURIComponent(Buffer.from(value, 'utf8').toString('utf8'))),
  fc.constantFrom('%', '%zz', '%E0%A4%A', '%C0%AF', String(fuzzAppId), '1', '12345678901234567890', 'a'.repeat(3000)),
);

const deepJson = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

const jsonBody = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)),
  fc.record({
    properties: fc.dictionary(fc.oneof(anyString, fc.constantFrom('name', 'domain', 'lifecyclestage', 'hs_pinned_engagement_id')), fc.oneof(anyString, fc.integer(), fc.constant(null)) as fc.Arbitrary<unknown>),
    inputs: fc.array(fc.record({ id: anyString, properties: fc.dictionary(anyString, anyString) }), { maxLength: 3 }),
  }, { requiredKeys: [] }).map((value) => JSON.stringify(value)),
  fc.constantFrom('{', '{"a":', 'not json', '[1,2', '\u0000', '', 'null', '"string"', '123', '[]',
    deepJson(5000), deepObject(2000), JSON.stringify({ inputs: Array.from({ length: 5000 }, (_, index) => ({ id: String(index) })) }),
    JSON.stringify({ properties: { name: megabyte } }), JSON.stringify({ name: megabyte, label: 'x', id: megabyte })),
);

const formBody = fc.oneof(
  fc.dictionary(fc.constantFrom('grant_type', 'client_id', 'client_secret', 'code', 'redirect_uri', 'refresh_token', 'email', 'password', 'csrf_token', 'decision', 'hub_id', 'scope'), anyString)
    .map((fields) => new URLSearchParams(fields).toString()),
  fc.constantFrom('%', '%zz=1', 'a=%E0%A4%A', '&&&', '=', 'grant_type=authorization_code&grant_type=refresh_token', `code=${megabyte}`, 'just-text', ''),
);

const queryString = fc.oneof(
  fc.dictionary(fc.oneof(anyString, fc.constantFrom('limit', 'after', 'properties', 'archived', 'associations', 'client_id', 'redirect_uri', 'scope', 'idProperty')), anyString)
    .map((fields) => new URLSearchParams(fields).toString()),
  fc.constantFrom('%', 'a=%zz', 'limit=-1', 'limit=100000', 'limit=abc', 'after=%E0%A4%A', 'properties=a&properties=b', 'archived=maybe', `after=${'x'.repeat(5000)}`),
);

const authorization = fc.oneof(
  fc.constant(undefined),
  fc.constant('valid'),
  fc.constant('scopeless'),
  fc.constantFrom('Bearer ', 'Bearer x', 'Basic Zm9vOmJhcg==', 'Basic %%%', 'bearer a.b', `Bearer ${'A'.repeat(600)}`, 'Bearer ..'),
  fc.constant('truncated'),
  fc.constant('forged'),
);

const contentTypes = fc.constantFrom('application/json', 'application/x-www-form-urlencoded', 'text/plain', 'application/json; charset=utf-8', undefined, 'multipart/form-data; boundary=x');

function headerFor(kind: string | undefined): string | undefined {
  if (kind === 'valid') return `Bearer ${validToken}`;
  if (kind === 'scopeless') return `Bearer ${scopelessToken}`;
  if (kind === 'truncated') return `Bearer ${validToken.slice(0, validToken.length - 7)}`;
  if (kind === 'forged') return `Bearer ${validToken.replace(/^.{10}/, 'eyJ2IjoxLC')}`;
  return kind;
}

function concretePath(route: Route, segments: string[]): string {
  if (route.path === '$default') return `/${segments.join('/')}`;
  let index = 0;
  return route.path.replace(/\{[^}]+\}/g, (param) => {
    const segment = segments[index] ?? '1';
    index += 1;
    // Half of the appId parameters name the token's own app so the request reaches the handler's logic.
    return /appId|applicationId/i.test(param) && segment.length % 2 === 0 ? String(fuzzAppId) : segment;
  });
}

async function assertWellFormed(route: Route, response: Response): Promise<void> {
  const text = await response.text();
  if (response.status >= 500) throw new Error(`${route.name}: ${response.status} ${text.slice(0, 300)}`);
  if (response.status < 400) return;
  const contentType = response.headers.get('content-type') ?? '';
  if (route.format === 'html' && contentType.startsWith('text/html')) return;
  if (!contentType.startsWith('application/json')) throw new Error(`${route.name}: ${response.status} error without JSON body (${contentType})`);
  const body = JSON.parse(text) as { status?: unknown; message?: unknown; correlationId?: unknown; category?: unknown };
  if (typeof body.message !== 'string' || typeof body.correlationId !== 'string' || typeof body.category !== 'string' || typeof body.status !== 'string') {
    throw new Error(`${route.name}: ${response.status} body is not the error object: ${text.slice(0, 300)}`);
  }
}

describe.each(routes.map((route) => [route.name, route] as const))('fuzzing %s', (_name, route) => {
  it(`never answers 5xx and always sends the error object (${runsPerRoute} requests)`, async () => {
    await fc.assert(fc.asyncProperty(
      fc.array(pathSegment, { minLength: 4, maxLength: 4 }), queryString, fc.oneof(jsonBody, formBody), contentTypes, authorization,
      async (segments, query, body, contentType, auth) => {
        const headers: Record<string, string> = {};
        if (contentType) headers['content-type'] = contentType;
        const authHeader = headerFor(auth);
        if (authHeader !== undefined) headers.authorization = authHeader;
        const method = route.method === 'ANY' ? 'POST' : route.method;
        const hasBody = method !== 'GET' && method !== 'DELETE';
        const url = `${gateway.baseUrl}${concretePath(route, segments)}${query ? `?${query}` : ''}`;
        sent += 1;
        const response = await fetch(url, { method, headers, body: hasBody ? body : undefined, redirect: 'manual' });
        await assertWellFormed(route, response);
      },
    ), { numRuns: runsPerRoute });
  });
});
