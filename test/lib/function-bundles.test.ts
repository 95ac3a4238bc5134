import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { RunningGateway } from '../../local/local-gateway';
import { functionTimeoutSecondsOf, routeKeyOf, type RouteSpelling } from '../../shared/base/route-types';
import { routeSpellings } from '../../shared/routes';
import { apiGatewayEvent, type RequestSpec } from '../support/api-gateway-event';
import { createDeveloperForApp } from '../../shared/admin/provisioning';
import { insertAppGrant } from '../../shared/db/oauth-grants';
import { clientCredentialsScopes, isKnownScope } from '../../shared/oauth/scopes';
import { install, signTestAccessToken, startTestGateway } from '../support/harness';
import { fixtureOf } from '../support/route-fixtures';
import { runBundle } from '../support/run-bundle';
import { synthesisTimeoutMs, synthesizedPlatform } from '../support/synthesized-platform';

/**
 * The bundles `cdk synth` writes are what ships. Each is loaded from the cloud assembly in a
 * fresh Node process, the way the Lambda runtime loads the handler the template names, and
 * invoked with API Gateway v2 events against DynamoDB Local; it must answer as the local
 * gateway (the handlers run from source) does.
 */
/** Every spelling of every row; the bundle of a spelling is its row's (by the row's name). */
const routes: readonly RouteSpelling[] = routeSpellings;

interface Bundle {
  taskRoot: string;
  handler: string;
  /** The function's environment from the template; deploy-time references replaced by this run's local stand-ins. */
  environment: NodeJS.ProcessEnv;
}

interface Invocation {
  response?: APIGatewayProxyStructuredResultV2;
  error?: string;
  /** What the function wrote to stdout: its log lines (the structured logger writes there). */
  logs: string;
  /** Node's own warnings and anything written with console.error. */
  stderr: string;
}

interface Answer {
  statusCode: number;
  contentType: string | undefined;
  location: string | undefined;
  cacheControl: string | undefined;
  cookieNames: string[];
  body: string;
}

const bundles = new Map<string, Bundle>();
/** Each row's function's Timeout in the template, by row name. */
const timeouts = new Map<string, unknown>();
let gateway: RunningGateway;
let host: string;

function localStandIn(name: string, value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  // Values CloudFormation resolves at deploy time.
  const standIns: Record<string, string | undefined> = {
    TABLE_NAME: process.env.TABLE_NAME,
    TOKEN_PUBLIC_KEYS: process.env.TOKEN_PUBLIC_KEYS,
    // SECRETS_FILE takes precedence over the ARNs, as locally.
    SIGNING_KEY_SECRET_ARN: 'arn:aws:secretsmanager:us-east-1:000000000000:secret:signing-key',
    SESSION_SECRET_ARN: 'arn:aws:secretsmanager:us-east-1:000000000000:secret:session-secret',
    // Links then match the local gateway's, which builds them from its own address.
    PUBLIC_BASE_URL: gateway.baseUrl,
    // The sandbox's flush delivers through the webhook queues: locally the in-process queue stands in for SQS.
    WEBHOOK_QUEUE_URL: undefined,
    WEBHOOK_DEAD_LETTER_QUEUE_URL: undefined,
    WEBHOOK_SEAL_KEY_SECRET_ARN: 'arn:aws:secretsmanager:us-east-1:000000000000:secret:webhook-seal-key',
    // Without a queue, a job's chunks run in the request that starts it, as in a Lambda with JOB_QUEUE_URL unset.
    JOB_QUEUE_URL: undefined,
  };
  if (!(name in standIns)) throw new Error(`no local stand-in for the deploy-time value of ${name}`);
  return standIns[name];
}

beforeAll(async () => {
  gateway = await startTestGateway();
  authorizedDeveloperKey = (await createDeveloperForApp(authorizedAppId)).developerApiKey;
  // The grant record the app token of the journal rows is checked against, as the client-credentials grant writes it.
  await insertAppGrant({
    grantId: authorizedAppGrantId,
    appId: authorizedAppId,
    clientId: 'bundle-test-client',
    scopes: [...clientCredentialsScopes],
    createdAt: new Date().toISOString(),
    expiresAtSeconds: Math.floor(Date.now() / 1000) + 3600,
  });
  host = new URL(gateway.baseUrl).host;
  const platform = await synthesizedPlatform();
  const template = platform.template('api') as {
    Resources: Record<
      string,
      { Type: string; Properties: Record<string, unknown>; Metadata?: Record<string, unknown> }
    >;
  };
  const functions = Object.entries(template.Resources).filter(
    ([, resource]) => resource.Type === 'AWS::Lambda::Function',
  );
  const functionOfRow = new Map<string, string>();
  for (const route of routes) {
    // The route's function is the one whose integration the route's API route targets.
    const routeKey = routeKeyOf(route);
    const apiRoute = Object.values(template.Resources).find(
      (resource) => resource.Type === 'AWS::ApiGatewayV2::Route' && resource.Properties.RouteKey === routeKey,
    );
    const integrationId = /"Ref":"([A-Za-z0-9]+)"/.exec(JSON.stringify(apiRoute?.Properties.Target))?.[1] ?? '';
    const functionId = /"Fn::GetAtt":\["([A-Za-z0-9]+)"/.exec(
      JSON.stringify(template.Resources[integrationId]?.Properties.IntegrationUri),
    )?.[1];
    const [, resource] = functions.find(([id]) => id === functionId) ?? [];
    if (!resource || !functionId) throw new Error(`no function serves ${route.spelling}`);
    // Every spelling of a row reaches the row's one function.
    if ((functionOfRow.get(route.name) ?? functionId) !== functionId)
      throw new Error(`${route.spelling} is served by another function than ${route.name}`);
    functionOfRow.set(route.name, functionId);
    timeouts.set(route.name, resource.Properties.Timeout);
    const variables = (resource.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    const environment: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      AWS_REGION: 'us-east-1',
      AWS_LAMBDA_FUNCTION_NAME: route.name,
      TZ: ':UTC',
      DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT,
      SECRETS_FILE: process.env.SECRETS_FILE,
    };
    for (const [name, value] of Object.entries(variables)) environment[name] = localStandIn(name, value);
    bundles.set(route.name, {
      taskRoot: path.join(platform.outdir, String(resource.Metadata?.['aws:asset:path'])),
      handler: String(resource.Properties.Handler),
      environment,
    });
  }
}, synthesisTimeoutMs);

afterAll(async () => {
  await gateway.close();
});

async function invokeBundle(route: RouteSpelling, events: APIGatewayProxyEventV2[]): Promise<Invocation[]> {
  const bundle = bundles.get(route.name);
  if (!bundle) throw new Error(`no bundle for ${route.name}`);
  const run = await runBundle<APIGatewayProxyStructuredResultV2>({ ...bundle, events });
  return run.results.map((result) => ({ ...result, logs: run.stdout, stderr: run.stderr }));
}

async function invokeOne(request: RequestSpec): Promise<Invocation> {
  const { route, event } = apiGatewayEvent({
    ...request,
    headers: { host, 'x-forwarded-proto': 'http', ...request.headers },
  });
  const [invocation] = await invokeBundle(route, [event]);
  if (!invocation) throw new Error('no invocation result');
  return invocation;
}

function withoutCorrelationId(body: string, correlationId: string | undefined): string {
  return correlationId ? body.replaceAll(correlationId, '<correlation-id>') : body;
}

function answerOfBundle(invocation: Invocation): Answer {
  const response = invocation.response;
  if (!response) throw new Error(`the bundle threw: ${invocation.error}\n${invocation.logs}${invocation.stderr}`);
  const headers = (response.headers ?? {}) as Record<string, string | undefined>;
  return {
    statusCode: response.statusCode ?? 200,
    contentType: headers['content-type'],
    location: headers.location,
    cacheControl: headers['cache-control'],
    cookieNames: (response.cookies ?? []).map((cookie) => cookie.split('=')[0] ?? ''),
    body: withoutCorrelationId(response.body ?? '', headers['x-hubspot-correlation-id']),
  };
}

async function answerOfGateway(request: RequestSpec): Promise<Answer> {
  const response = await fetch(`${gateway.baseUrl}${request.url}`, {
    method: request.method,
    headers: request.headers,
    body: request.body,
    redirect: 'manual',
  });
  return {
    statusCode: response.status,
    contentType: response.headers.get('content-type') ?? undefined,
    location: response.headers.get('location') ?? undefined,
    cacheControl: response.headers.get('cache-control') ?? undefined,
    cookieNames: response.headers.getSetCookie().map((cookie) => cookie.split('=')[0] ?? ''),
    body: withoutCorrelationId(await response.text(), response.headers.get('x-hubspot-correlation-id') ?? undefined),
  };
}

/** A request for the route made from its row alone: every path parameter bogus, an empty body of the row's type. */
function requestFor(route: RouteSpelling): RequestSpec {
  const method = route.method === 'ANY' ? 'GET' : route.method;
  const url = route.path === '$default' ? '/no/such/route' : route.path.replace(/\{[^}]+\}/g, 'bundle-test-value');
  if (route.body === 'json') return { method, url, headers: { 'content-type': 'application/json' }, body: '{}' };
  if (route.body === 'urlencoded')
    return { method, url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' };
  return { method, url };
}

/**
 * For a route behind a token: a valid token with the row's scopes (the app's own token, with its grant
 * record, on an app-token route), or on a developer-key route the developer API key that manages the app (?hapikey=); numeric path parameters (the id shape), and
 * only methods that cannot create anything, so both runs see the same table.
 */
const authorizedAppId = 12345;
const authorizedAppGrantId = `bundle-test-app-grant-${process.pid}-${Date.now()}`;
let authorizedDeveloperKey = '';
const readOrDeleteRoutes = routes.filter(
  (route) => route.scopes !== 'public' && (route.method === 'GET' || route.method === 'DELETE'),
);

function authorizedRequestFor(route: RouteSpelling, hubId = 40999999): RequestSpec {
  const scopes = route.scopes === 'public' ? [] : route.scopes.filter(isKnownScope);
  const token =
    route.auth === 'appToken'
      ? signTestAccessToken({
          kind: 'app',
          appId: authorizedAppId,
          hubId: 0,
          userId: 0,
          scopes,
          grantId: authorizedAppGrantId,
        })
      : signTestAccessToken({ appId: authorizedAppId, hubId, scopes });
  const url = route.path.replace(/\{[^}]+\}/g, String(authorizedAppId));
  if (route.auth === 'developerKey' || route.auth === 'developerAccount')
    return { method: route.method, url: `${url}?hapikey=${encodeURIComponent(authorizedDeveloperKey)}` };
  return { method: route.method, url, headers: { authorization: `Bearer ${token}` } };
}

describe('function bundles from the cloud assembly', () => {
  it.each(readOrDeleteRoutes.map((route) => [route.spelling, route] as const))(
    '%s answers an authorized request as the local gateway does',
    async (_name, route) => {
      // A row that ends its caller's install (the uninstall) gets an account of its own for each run, so
      // neither run meets the other's ended install, nor does any other row.
      const ownHub = () => 41_000_000 + Math.floor(Math.random() * 1_000_000_000);
      const [bundleRequest, gatewayRequest] = fixtureOf(route).endsCallersInstall
        ? [authorizedRequestFor(route, ownHub()), authorizedRequestFor(route, ownHub())]
        : [authorizedRequestFor(route), authorizedRequestFor(route)];

      const [fromBundle, fromGateway] = await Promise.all([invokeOne(bundleRequest), answerOfGateway(gatewayRequest)]);

      expect(answerOfBundle(fromBundle)).toEqual(fromGateway);
      // Past the token check: the handler itself answered, after its own reads.
      expect(fromGateway.statusCode).not.toBe(401);
      expect(fromGateway.statusCode).toBeLessThan(500);
    },
  );

  it.each(routes.map((route) => [route.spelling, route] as const))(
    '%s answers a request built from its row as the local gateway does',
    async (_name, route) => {
      const request = requestFor(route);
      expect(apiGatewayEvent(request).route.spelling).toBe(route.spelling);

      const [fromBundle, fromGateway] = await Promise.all([invokeOne(request), answerOfGateway(request)]);

      expect(answerOfBundle(fromBundle)).toEqual(fromGateway);
      expect(answerOfBundle(fromBundle).statusCode).toBeLessThan(500);
    },
  );

  it("gives each row's function the row's timeout: 10 s, the fixtures' all-or-nothing load 29 s", () => {
    for (const route of routeSpellings)
      expect([route.name, timeouts.get(route.name)]).toEqual([route.name, functionTimeoutSecondsOf(route)]);
    expect(timeouts.get('loadTestAccountFixtures')).toBe(29);
    expect(timeouts.get('createObject')).toBe(10);
  });

  it('answers an unknown path with the 404 error object', async () => {
    const answer = answerOfBundle(await invokeOne({ method: 'GET', url: '/no/such/path' }));

    expect(answer.statusCode).toBe(404);
    expect(JSON.parse(answer.body)).toMatchObject({
      status: 'error',
      category: 'OBJECT_NOT_FOUND',
      correlationId: '<correlation-id>',
    });
  });

  it('answers a token request without grant_type with 400 invalid_request', async () => {
    const answer = answerOfBundle(
      await invokeOne({
        method: 'POST',
        url: '/oauth/v1/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'client_id=someone',
      }),
    );

    expect(answer.statusCode).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({
      status: expect.any(String),
      error: 'invalid_request',
      correlationId: '<correlation-id>',
    });
  });

  it('answers metadata of a bogus access token with 404', async () => {
    const answer = answerOfBundle(await invokeOne({ method: 'GET', url: '/oauth/v1/access-tokens/not-a-real-token' }));

    expect(answer.statusCode).toBe(404);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 'error', correlationId: '<correlation-id>' });
  });

  it('answers an install link of an unknown client with a 400 HTML page, not a redirect', async () => {
    const answer = answerOfBundle(
      await invokeOne({
        method: 'GET',
        url: '/oauth/authorize?client_id=unknown-client&redirect_uri=https%3A%2F%2Fevil.example%2Fcb&scope=oauth',
      }),
    );

    expect(answer.statusCode).toBe(400);
    expect(answer.contentType).toMatch(/^text\/html/);
    expect(answer.location).toBeUndefined();
  });

  it('issues tokens with the signing key and verifies them with the public keys of its environment', async () => {
    const installed = await install(gateway);

    const refreshed = await invokeOne({
      method: 'POST',
      url: '/oauth/v1/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        client_id: installed.clientId,
        client_secret: installed.clientSecret,
        refresh_token: installed.refreshToken,
      }).toString(),
    });
    const tokens = JSON.parse(answerOfBundle(refreshed).body) as { access_token: string };
    const info = answerOfBundle(
      await invokeOne({ method: 'GET', url: `/oauth/v1/access-tokens/${tokens.access_token}` }),
    );

    expect(answerOfBundle(refreshed).statusCode).toBe(200);
    expect(info.statusCode).toBe(200);
    expect(JSON.parse(info.body)).toMatchObject({
      hub_id: installed.hubId,
      app_id: installed.appId,
      token_type: 'access',
    });
  });

  it('logs JSON lines with the correlation id and never the tokens it handles', async () => {
    const installed = await install(gateway);

    const invocation = await invokeOne({
      method: 'POST',
      url: '/oauth/v1/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        client_id: installed.clientId,
        client_secret: installed.clientSecret,
        refresh_token: installed.refreshToken,
      }).toString(),
    });
    const correlationId = (invocation.response?.headers as Record<string, string> | undefined)?.[
      'x-hubspot-correlation-id'
    ];
    const lines = invocation.logs.split('\n').filter((line) => line.trim() !== '');
    const accessToken =
      (JSON.parse(invocation.response?.body ?? '{}') as { access_token?: string }).access_token ?? 'missing';

    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ correlationId });
    for (const secret of [installed.refreshToken, installed.clientSecret, accessToken])
      expect(invocation.logs + invocation.stderr).not.toContain(secret);
  });

  it.each(routes.map((route) => [route.spelling, route] as const))(
    '%s carries the precompiled validators of its schemas instead of compiling them at cold start',
    (_name, route) => {
      let keys: string[] = [];
      jest.isolateModules(() => {
        const validation =
          jest.requireActual<typeof import('../../shared/http/validation')>('../../shared/http/validation');
        jest.requireActual(path.join(__dirname, '..', '..', route.entry));
        keys = [...validation.registeredSchemas.keys()];
      });
      const code = readFileSync(path.join(bundles.get(route.name)?.taskRoot ?? '', 'index.mjs'), 'utf8');

      for (const key of keys)
        expect([key, code.includes(`"${key}"`) || code.includes(`.${key}=`)]).toEqual([key, true]);
    },
  );

  it('loads the route of a row the way Lambda does: the module the handler setting names', () => {
    for (const route of routes) {
      const bundle = bundles.get(route.name);
      expect(bundle?.handler).toBe('index.handler');
      expect(readFileSync(path.join(bundle?.taskRoot ?? '', 'index.mjs'), 'utf8')).toMatch(
        /export\s*\{[^}]*\bas handler\b|export\s*\{[^}]*\bhandler\b/,
      );
    }
  });
});
