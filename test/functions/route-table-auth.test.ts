import type { RunningGateway } from '../../local/local-gateway';
import type { Scope } from '../../shared/oauth/scopes';
import { routeSpellings } from '../../shared/routes';
import type { RouteSpelling } from '../../shared/base/route-types';
import {
  clientCredentialsToken,
  install,
  journalAppScopes,
  signTestAccessToken,
  startTestGateway,
  type InstalledTokens,
} from '../support/harness';
import {
  fixtureOf,
  isAuthenticated,
  missing,
  missingFixtures,
  paramValues,
  type IsolationCase,
  type RequestSpec,
  type Stranger,
  type World,
} from '../support/route-fixtures';
import { buildWorld, sendRaw, type Credential, type RawResponse } from '../support/route-world';

/**
 * Generated from the route table (shared/routes.ts) and its fixtures (test/support/route-fixtures.ts),
 * on every spelling of every row (its own path and each alias): every authenticated row answers 401
 * without credentials whatever body comes with them (no 415 or malformed-JSON 400 first), 403 to
 * credentials without the right (a token without the row's scopes, another developer's API key), and
 * keeps another tenant away from the owner's records. A row or alias added to the table is in every
 * one of these checks; one without a fixture fails the first test.
 */
const table: readonly RouteSpelling[] = routeSpellings;
const authenticated = table.filter(isAuthenticated);

let gateway: RunningGateway;
let owner: InstalledTokens;
let stranger: InstalledTokens;
/** The stranger's app's own token (the client-credentials grant's), for the journal rows. */
let strangerAppToken: string;
let world: World;
let ownerOnly: string[];

/** Any method with any body (fetch refuses a body on GET), over HTTP to the local gateway. */
const send = (method: string, path: string, headers: Record<string, string>, body?: string): Promise<RawResponse> =>
  sendRaw(gateway.baseUrl, method, path, headers, body);

function pathOf(route: RouteSpelling, params: Record<string, string> = {}): string {
  const values = { ...paramValues(world), ...params };
  return route.path.replace(/\{([^}]+)\}/g, (_whole, name: string) => encodeURIComponent(values[name] ?? ''));
}

const methodOf = (route: RouteSpelling) => (route.method === 'ANY' ? 'POST' : route.method);
const modeOf = (route: RouteSpelling) => route.auth ?? 'token';
const takesToken = (route: RouteSpelling) =>
  modeOf(route) !== 'developerKey' && modeOf(route) !== 'developerAccount' && modeOf(route) !== 'appToken';
const takesKey = (route: RouteSpelling) => modeOf(route) !== 'token' && modeOf(route) !== 'appToken';
const takesAppToken = (route: RouteSpelling) => modeOf(route) === 'appToken';

function call(route: RouteSpelling, credential: Credential, spec: RequestSpec = {}): Promise<RawResponse> {
  const query = [
    spec.query ?? '',
    credential.hapikey === undefined ? '' : `hapikey=${encodeURIComponent(credential.hapikey)}`,
  ]
    .filter((part) => part !== '')
    .join('&');
  const headers: Record<string, string> = credential.header === undefined ? {} : { authorization: credential.header };
  const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
  if (body !== undefined) headers['content-type'] = 'application/json';
  return send(methodOf(route), `${pathOf(route, spec.params)}${query ? `?${query}` : ''}`, headers, body);
}

const jsonOf = (response: RawResponse) =>
  JSON.parse(response.text) as { status?: string; category?: string; correlationId?: string; message?: string };

beforeAll(async () => {
  gateway = await startTestGateway();
  // Both apps list the journal scopes, so each has an app token for the journal rows.
  owner = await install(gateway, { scopes: [...journalAppScopes] });
  stranger = await install(gateway, { scopes: [...journalAppScopes] });
  strangerAppToken = await clientCredentialsToken(gateway, stranger);
  ({ world, ownerOnly } = await buildWorld(gateway, owner, stranger));
});

afterAll(async () => {
  await gateway.close();
});

describe('the route table', () => {
  it('has a fixture (valid body, path values, tenant-isolation cases) for every row', () => {
    expect(missingFixtures()).toEqual([]);
  });

  it('has authenticated rows of every auth mode', () => {
    expect(new Set(authenticated.map(modeOf))).toEqual(
      new Set(['token', 'developerKey', 'developerKeyOrToken', 'developerAccount', 'appToken']),
    );
  });
});

/** Bodies a client without credentials might send: none, a valid one, one of the wrong content type, malformed JSON, a form. */
function anonymousRequests(route: RouteSpelling): { label: string; headers: Record<string, string>; body?: string }[] {
  const valid = fixtureOf(route).validBody?.(world);
  return [
    { label: 'no body', headers: {} },
    { label: 'a valid body', headers: { 'content-type': 'application/json' }, body: JSON.stringify(valid ?? {}) },
    { label: 'a text/plain body', headers: { 'content-type': 'text/plain' }, body: 'hello' },
    { label: 'malformed JSON', headers: { 'content-type': 'application/json' }, body: '{"properties":' },
    { label: 'JSON without a content type', headers: {}, body: '{}' },
    { label: 'a form body', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=%zz&b' },
  ];
}

describe.each(authenticated.map((route) => [route.spelling, route] as const))('%s', (_name, route) => {
  it('answers 401 with the error object to a request without credentials, whatever its body', async () => {
    const answers: string[] = [];
    for (const anonymous of anonymousRequests(route)) {
      const response = await send(methodOf(route), pathOf(route), anonymous.headers, anonymous.body);
      const body = jsonOf(response);
      answers.push(`${anonymous.label}: ${response.status} ${body.category}`);
      expect(body).toMatchObject({
        status: 'error',
        message: expect.any(String),
        correlationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      });
      expect(response.headers['x-hubspot-correlation-id']).toBe(body.correlationId);
    }
    expect(answers).toEqual(
      anonymousRequests(route).map((anonymous) => `${anonymous.label}: 401 INVALID_AUTHENTICATION`),
    );
  });

  it('answers 403 to credentials without the right, before reading a bad body', async () => {
    const checks: string[] = [];
    if (takesToken(route)) {
      const scopes = route.scopes === 'public' ? [] : route.scopes;
      // Every install holds 'oauth'; a row that needs it (the uninstall) meets a token with another scope.
      const held: Scope[] = scopes.includes('oauth') ? ['timeline'] : ['oauth'];
      expect(held.filter((scope) => scopes.includes(scope))).toEqual([]);
      const caller = await callerOf(route);
      const unrelated = signTestAccessToken({ appId: caller.appId, hubId: caller.hubId, scopes: held });
      for (const body of [undefined, 'not json']) {
        const response = await send(
          methodOf(route),
          pathOf(route),
          { authorization: `Bearer ${unrelated}`, ...(body ? { 'content-type': 'text/plain' } : {}) },
          body,
        );
        checks.push(
          `token without the scopes${body ? ' and a bad body' : ''}: ${response.status} ${jsonOf(response).category}`,
        );
      }
    }
    // A sandbox control acts for the key's own developer account: another developer's key meets the
    // owner's test account as none (404); the rows without a test account in the path are its own (isolation checks them).
    const namesTestAccount = route.path.includes('{hubId}');
    if (takesKey(route) && (modeOf(route) !== 'developerAccount' || namesTestAccount)) {
      const response = await call(
        route,
        { hapikey: stranger.developerApiKey },
        { body: fixtureOf(route).validBody?.(world) },
      );
      checks.push(`another developer's key: ${response.status} ${jsonOf(response).category}`);
    }
    if (takesAppToken(route)) {
      // An app token of the owner's app holding a journal scope, but none of the row's.
      const unrelated = await clientCredentialsToken(gateway, owner, ['developer.webhooks_journal.snapshots.read']);
      for (const body of [undefined, 'not json']) {
        const response = await send(
          methodOf(route),
          pathOf(route),
          { authorization: `Bearer ${unrelated}`, ...(body ? { 'content-type': 'text/plain' } : {}) },
          body,
        );
        checks.push(
          `app token without the scopes${body ? ' and a bad body' : ''}: ${response.status} ${jsonOf(response).category}`,
        );
      }
    }
    if (!takesToken(route)) {
      const response = await call(
        route,
        { header: `Bearer ${owner.accessToken}` },
        { body: fixtureOf(route).validBody?.(world) },
      );
      checks.push(
        `the app's access token instead of ${takesAppToken(route) ? 'its app token' : 'the key'}: ${response.status} ${jsonOf(response).category}`,
      );
    }

    const expected = [
      ...(takesToken(route)
        ? [
            'token without the scopes: 403 MISSING_SCOPES',
            'token without the scopes and a bad body: 403 MISSING_SCOPES',
          ]
        : []),
      ...(takesKey(route) && modeOf(route) !== 'developerAccount' ? ["another developer's key: 403 FORBIDDEN"] : []),
      ...(modeOf(route) === 'developerAccount' && namesTestAccount
        ? ["another developer's key: 404 OBJECT_NOT_FOUND"]
        : []),
      ...(takesAppToken(route)
        ? [
            'app token without the scopes: 403 MISSING_SCOPES',
            'app token without the scopes and a bad body: 403 MISSING_SCOPES',
          ]
        : []),
      ...(!takesToken(route)
        ? [
            `the app's access token instead of ${takesAppToken(route) ? 'its app token' : 'the key'}: 401 INVALID_AUTHENTICATION`,
          ]
        : []),
    ];
    expect(checks).toEqual(expected);
  });

  it("keeps another tenant away from the owner's records", async () => {
    const cases = fixtureOf(route).isolation ?? [];
    expect(cases.length).toBeGreaterThan(0);
    for (const isolation of cases) {
      for (const as of isolation.as) await expectIsolated(route, isolation, as);
    }
  });
});

/** Who calls a row with the owner's app: the owner, or for a row that ends the caller's install, an install made for the call. */
async function callerOf(route: RouteSpelling): Promise<{ appId: number; hubId: number }> {
  return fixtureOf(route).endsCallersInstall ? install(gateway) : owner;
}

async function credentialOf(route: RouteSpelling, as: Stranger): Promise<Credential> {
  if (takesAppToken(route)) {
    if (as !== 'otherApp') throw new Error(`${route.spelling}: takes app tokens; its isolation case cannot use ${as}`);
    return { header: `Bearer ${strangerAppToken}` };
  }
  if (as === 'otherDeveloper') {
    if (!takesKey(route))
      throw new Error(`${route.spelling}: takes no developer key; its isolation case cannot use ${as}`);
    return { hapikey: stranger.developerApiKey };
  }
  if (!takesToken(route))
    throw new Error(`${route.spelling}: takes no access token; its isolation case cannot use ${as}`);
  // A row that ends the caller's install gets a stranger of its own, so the shared stranger's install lives on.
  const other = fixtureOf(route).endsCallersInstall ? await install(gateway) : stranger;
  if (as === 'otherApp') return { header: `Bearer ${other.accessToken}` };
  return {
    header: `Bearer ${signTestAccessToken({ appId: owner.appId, hubId: other.hubId, scopes: owner.scopes as Scope[] })}`,
  };
}

/** Everything the owner can read of its records; a stranger's request must leave it as it was. */
async function ownerSnapshot(): Promise<string[]> {
  const token = { authorization: `Bearer ${owner.accessToken}` };
  const app = { authorization: `Bearer ${world.appToken}` };
  const key = `hapikey=${encodeURIComponent(owner.developerApiKey)}`;
  const timeline = `/integrations/v1/${world.appId}/timeline`;
  const reads = [
    send(
      'GET',
      `/crm/v3/objects/companies/${world.companyId}?properties=name,domain&associations=companies,contacts`,
      token,
    ),
    send('GET', `/crm/v3/properties/companies/${world.customPropertyName}`, token),
    send('GET', '/crm/v4/associations/companies/contacts/labels', token),
    send('GET', `/crm/v3/properties/companies/groups/${world.groupName}`, token),
    send('GET', `${timeline}/event-types/${world.eventTypeId}?${key}`, {}),
    send('GET', `${timeline}/event-types/${world.eventTypeId}/properties?${key}`, {}),
    send('GET', `${timeline}/event/${world.eventTypeId}/${encodeURIComponent(world.eventId)}`, token),
    send('GET', `/crm/v3/pipelines/deals/${world.pipelineId}`, token),
    send('GET', `/crm/v3/lists/folders?folderId=${world.folderId}`, token),
    send('GET', '/webhooks-journal/subscriptions/2026-03', app),
    send('GET', `/webhooks-journal/subscriptions/2026-03/filters/subscription/${world.journalSubscriptionId}`, app),
  ];
  return (await Promise.all(reads)).map(
    (response) => `${response.status} ${response.text.replace(/"correlationId":"[^"]*"/g, '')}`,
  );
}

function leavesOf(value: unknown): string[] {
  if (value === null || value === undefined) return [];
  if (typeof value === 'object') return Object.values(value as Record<string, unknown>).flatMap(leavesOf);
  return [String(value)];
}

/** The answer with what may differ between the owner's ids and missing ones masked: ids, timestamps, the correlation id. */
function masked(response: RawResponse, ...specs: RequestSpec[]): string {
  const ids = [
    ...specs.flatMap((spec) => [...leavesOf(spec.params), ...leavesOf(spec.body)]),
    ...Object.values(missing),
    String(world.appId),
    world.companyId,
    world.companyDomain,
    String(world.eventTypeId),
    String(world.propertyId),
    world.eventId,
    world.customPropertyName,
    world.strangerCompanyId,
    world.groupName,
    String(world.labelTypeId),
    world.pipelineId,
    world.stageId,
    world.ownerId,
  ]
    .filter((id) => id.length >= 3)
    .sort((a, b) => b.length - a.length);
  let text = response.text
    .replace(/"correlationId":"[^"]*"/g, '"correlationId":"C"')
    .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, 'TIME');
  for (const id of new Set(ids)) text = text.split(id).join('ID');
  return `${response.status} ${text}`;
}

/** The owner's records a stranger's answer must never mention (unless the stranger sent the value itself). */
function ownerMarkers(spec: RequestSpec): string[] {
  const sent = JSON.stringify(spec);
  return ownerOnly.filter((marker) => !sent.includes(marker));
}

async function expectIsolated(route: RouteSpelling, isolation: IsolationCase, as: Stranger): Promise<void> {
  const credential = await credentialOf(route, as);
  const before = await ownerSnapshot();
  const foreignSpec = isolation.foreign(world);
  const foreign = await call(route, credential, foreignSpec);
  const label = `${route.spelling} as ${as} (${isolation.check})`;
  expect({ label, status: foreign.status < 500 }).toEqual({ label, status: true });
  if (isolation.check === 'sameAsMissing' || isolation.check === 'sameStatusAsFresh') {
    if (!isolation.control) throw new Error(`${label}: needs a control request`);
    const controlSpec = isolation.control(world);
    const control = await call(route, credential, controlSpec);
    if (isolation.check === 'sameAsMissing') {
      expect({ label, answer: masked(foreign, foreignSpec, controlSpec) }).toEqual({
        label,
        answer: masked(control, foreignSpec, controlSpec),
      });
    } else {
      expect({ label, status: foreign.status }).toEqual({ label, status: control.status });
    }
  }
  if (isolation.check !== 'sameAsMissing') {
    const mentioned = ownerMarkers(foreignSpec).filter((marker) => foreign.text.includes(marker));
    expect({ label, mentioned }).toEqual({ label, mentioned: [] });
  }
  expect({ label, owner: await ownerSnapshot() }).toEqual({ label, owner: before });
}
