import { Client } from '@hubspot/api-client';
import { installRecorder, recordCommands } from '../../../bench/dynamo-recorder';
import { advanceClock, freezeClock } from '../../../shared/base/clock';
import { maxFixtureLists, maxFixtureMembers } from '../../../shared/sandbox/fixture-limits';
import { deleteTestAccount } from '../../../shared/sandbox/test-accounts';
import { bearer, install, jsonOf, provision, useTestGateway, type InstalledTokens } from '../../support/harness';
import { sandboxControl, type ControlAnswer } from '../../support/sandbox-control';

/**
 * The test-account controls (`/sandbox/v1`, shared/sandbox): test accounts of a developer account,
 * installs without the browser, injected faults (counted exactly, never reaching the handler, retried
 * by the official SDK), fixtures loaded all or nothing. Reset and flush have their own files
 * (test/shared/db/account-purge.test.ts, test/shared/webhooks/account-flush.test.ts) and a route test here.
 */
const gateway = useTestGateway();
let developer: InstalledTokens;

beforeAll(async () => {
  installRecorder();
  developer = await install(gateway);
});

type Answer<T = Record<string, unknown>> = ControlAnswer<T>;

const control = <T = Record<string, unknown>>(
  method: string,
  path: string,
  body?: unknown,
  key = developer.developerApiKey,
): Promise<Answer<T>> => sandboxControl<T>(gateway, key, method, path, body);

async function api(method: string, path: string, token: string, body?: unknown): Promise<Answer> {
  const response = await fetch(`${gateway.baseUrl}${path}`, {
    method,
    headers: { ...bearer(token), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: (text === '' ? {} : JSON.parse(text)) as Record<string, unknown>,
    headers: response.headers,
  };
}

interface Tokens {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  hub_id: number;
  token_type: string;
}

async function newTestAccount(name?: string): Promise<number> {
  const created = await control<{ hubId: number }>('POST', '/test-accounts', name === undefined ? {} : { name });
  expect(created.status).toBe(201);
  return created.body.hubId;
}

/** Deletes a test account, so the developer's ten have room for the tests after. */
async function removeTestAccount(hubId: number): Promise<void> {
  expect((await control('DELETE', `/test-accounts/${hubId}`)).status).toBe(204);
}

async function installed(hubId: number, scopes = developer.scopes, expiresInSeconds?: number): Promise<Tokens> {
  const answer = await control<Tokens>('POST', `/test-accounts/${hubId}/installs`, {
    appId: developer.appId,
    scopes,
    ...(expiresInSeconds === undefined ? {} : { expiresInSeconds }),
  });
  expect(answer.status).toBe(201);
  return answer.body;
}

describe('test accounts', () => {
  it('are created, listed and deleted by their developer account, at most 10', async () => {
    const other = await install(gateway);
    const hubIds: number[] = [];
    const first = await control<{ hubId: number; domain: string; name: string }>(
      'POST',
      '/test-accounts',
      { name: 'Checkout suite' },
      other.developerApiKey,
    );
    expect(first).toMatchObject({
      status: 201,
      body: { name: 'Checkout suite', domain: expect.stringMatching(/\.test$/) },
    });
    hubIds.push(first.body.hubId);
    for (let index = 1; index < 10; index += 1) {
      const created = await control<{ hubId: number }>('POST', '/test-accounts', {}, other.developerApiKey);
      expect(created.status).toBe(201);
      hubIds.push(created.body.hubId);
    }
    const eleventh = await control('POST', '/test-accounts', {}, other.developerApiKey);
    expect(eleventh).toMatchObject({
      status: 400,
      body: { category: 'VALIDATION_ERROR', context: { testAccounts: ['10'] } },
    });

    const listed = await control<{ results: { hubId: number }[] }>(
      'GET',
      '/test-accounts',
      undefined,
      other.developerApiKey,
    );
    expect(listed.body.results.map((account) => account.hubId)).toEqual(hubIds);
    // Another developer's listing holds none of them.
    const mine = await control<{ results: { hubId: number }[] }>('GET', '/test-accounts');
    expect(mine.body.results.filter((account) => hubIds.includes(account.hubId))).toEqual([]);

    const ended = await control<Tokens>(
      'POST',
      `/test-accounts/${hubIds[0]}/installs`,
      { appId: other.appId, scopes: ['crm.objects.companies.read'] },
      other.developerApiKey,
    );
    expect((await api('GET', '/crm/v3/objects/companies', ended.body.access_token)).status).toBe(200);
    expect((await control('DELETE', `/test-accounts/${hubIds[0]}`, undefined, other.developerApiKey)).status).toBe(204);
    // The account's installs ended with it: its tokens are refused, its refresh token too.
    expect((await api('GET', '/crm/v3/objects/companies', ended.body.access_token)).status).toBe(401);
    const refreshed = await fetch(`${gateway.baseUrl}/oauth/v1/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        client_id: other.clientId,
        client_secret: other.clientSecret,
        refresh_token: ended.body.refresh_token,
      }).toString(),
    });
    expect(refreshed.status).toBe(400);
    expect((await control('DELETE', `/test-accounts/${hubIds[0]}`, undefined, other.developerApiKey)).status).toBe(404);
    expect((await control('POST', '/test-accounts', {}, other.developerApiKey)).status).toBe(201);
  });

  it('refuse a name with control characters, naming the field', async () => {
    const refused = await control('POST', '/test-accounts', { name: 'bad\u0007name' });
    expect(refused).toMatchObject({
      status: 400,
      body: { category: 'VALIDATION_ERROR', context: { name: ['bad\u0007name'] } },
    });
  });

  it("answer 404 for a standard account and for another developer's test account", async () => {
    const other = await install(gateway);
    const theirs = (await control<{ hubId: number }>('POST', '/test-accounts', {}, other.developerApiKey)).body.hubId;
    for (const hubId of [developer.hubId, theirs, 999999999]) {
      for (const [method, path] of [
        ['POST', `/test-accounts/${hubId}/reset`],
        ['GET', `/test-accounts/${hubId}/faults`],
        ['DELETE', `/test-accounts/${hubId}`],
      ] as const) {
        const answer = await control(method, path);
        expect({ path, status: answer.status, category: answer.body.category }).toEqual({
          path,
          status: 404,
          category: 'OBJECT_NOT_FOUND',
        });
      }
    }
    // Both accounts are still there.
    expect((await api('GET', '/crm/v3/objects/companies', developer.accessToken)).status).toBe(200);
    expect((await control('GET', `/test-accounts/${theirs}/faults`, undefined, other.developerApiKey)).status).toBe(
      200,
    );
  });

  it('refuse installs from the moment a delete starts, even while the delete is unfinished', async () => {
    const hubId = await newTestAccount();
    const before = await installed(hubId);
    // A delete whose time is up before its purge starts: it marks the account and answers "call again".
    await expect(
      deleteTestAccount({ developerId: developer.developerId, appIds: [developer.appId] }, String(hubId), 0),
    ).rejects.toMatchObject({ status: 503 });
    const during = await control('POST', `/test-accounts/${hubId}/installs`, {
      appId: developer.appId,
      scopes: developer.scopes,
    });
    expect(during.status).toBe(404);
    expect((await api('GET', '/crm/v3/objects/contacts', before.access_token)).status).toBe(401);
    expect((await control('DELETE', `/test-accounts/${hubId}`)).status).toBe(204);
    expect((await control('DELETE', `/test-accounts/${hubId}`)).status).toBe(404);
  });

  it('answer 401 to a missing or unknown key and to an access token', async () => {
    const anonymous = await fetch(`${gateway.baseUrl}/sandbox/v1/test-accounts`);
    expect(anonymous.status).toBe(401);
    expect((await control('GET', '/test-accounts', undefined, 'not-a-key')).status).toBe(401);
    const withToken = await fetch(`${gateway.baseUrl}/sandbox/v1/test-accounts`, {
      headers: bearer(developer.accessToken),
    });
    expect((await jsonOf(withToken)).category).toBe('INVALID_AUTHENTICATION');
  });
});

describe('installs without the browser', () => {
  it('give the token endpoint body, tokens that work, and a refresh that keeps the short lifetime', async () => {
    // The 2 s tokens expire by the clock the gateway reads, moved here, never by how long the calls take.
    freezeClock();
    const hubId = await newTestAccount();
    const tokens = await installed(hubId, ['crm.objects.contacts.read', 'crm.objects.contacts.write'], 2);
    expect(tokens).toMatchObject({ token_type: 'bearer', expires_in: 2, hub_id: hubId });
    const createdContact = await api('POST', '/crm/v3/objects/contacts', tokens.access_token, {
      properties: { email: 'first@example.com' },
    });
    expect(createdContact.status).toBe(201);
    // The scopes are the install's: companies were not granted.
    expect((await api('GET', '/crm/v3/objects/companies', tokens.access_token)).status).toBe(403);

    advanceClock(3_100);
    const expired = await api('GET', '/crm/v3/objects/contacts', tokens.access_token);
    expect(expired).toMatchObject({ status: 401, body: { category: 'EXPIRED_AUTHENTICATION' } });

    const refreshed = await fetch(`${gateway.baseUrl}/oauth/v1/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        client_id: developer.clientId,
        client_secret: developer.clientSecret,
        refresh_token: tokens.refresh_token,
      }).toString(),
    });
    const body = await jsonOf<Tokens>(refreshed);
    expect({ status: refreshed.status, expiresIn: body.expires_in }).toEqual({ status: 200, expiresIn: 2 });
    expect((await api('GET', '/crm/v3/objects/contacts', body.access_token)).status).toBe(200);
  });

  it('again gives new tokens while the earlier ones keep working', async () => {
    const hubId = await newTestAccount();
    const first = await installed(hubId);
    const second = await installed(hubId);
    expect(second.access_token).not.toBe(first.access_token);
    expect((await api('GET', '/crm/v3/objects/companies', first.access_token)).status).toBe(200);
    expect((await api('GET', '/crm/v3/objects/companies', second.access_token)).status).toBe(200);
  });

  it("refuse scopes the app does not request, another developer's app and a lifetime out of range", async () => {
    const hubId = await newTestAccount();
    const other = await install(gateway);
    const outside = await control('POST', `/test-accounts/${hubId}/installs`, {
      appId: developer.appId,
      scopes: ['crm.objects.contacts.read', 'no.such.scope'],
    });
    expect(outside).toMatchObject({ status: 400, body: { context: { scopes: ['no.such.scope'] } } });
    const foreignApp = await control('POST', `/test-accounts/${hubId}/installs`, {
      appId: other.appId,
      scopes: ['oauth'],
    });
    expect(foreignApp).toMatchObject({ status: 400, body: { context: { appId: [String(other.appId)] } } });
    const tooLong = await control('POST', `/test-accounts/${hubId}/installs`, {
      appId: developer.appId,
      scopes: ['oauth'],
      expiresInSeconds: 0,
    });
    expect(tooLong.status).toBe(400);
  });

  it("refuse the app's own client-credentials scopes, although the app lists them", async () => {
    const journalApp = await provision({ scopes: ['oauth', 'developer.webhooks_journal.read'] });
    const created = await control<{ hubId: number }>('POST', '/test-accounts', {}, journalApp.developerApiKey);
    expect(created.status).toBe(201);

    const refused = await control(
      'POST',
      `/test-accounts/${created.body.hubId}/installs`,
      { appId: journalApp.appId, scopes: ['oauth', 'developer.webhooks_journal.read'] },
      journalApp.developerApiKey,
    );

    expect(refused).toMatchObject({
      status: 400,
      body: { category: 'VALIDATION_ERROR', context: { scopes: ['developer.webhooks_journal.read'] } },
    });
  });
});

describe('injected faults', () => {
  let hubId: number;
  let token: string;
  beforeAll(async () => {
    hubId = await newTestAccount();
    token = (await installed(hubId)).access_token;
  });
  afterEach(async () => {
    const listed = await control<{ results: { id: string }[] }>('GET', `/test-accounts/${hubId}/faults`);
    for (const fault of listed.body.results) await control('DELETE', `/test-accounts/${hubId}/faults/${fault.id}`);
  });

  it('answer the next count matching calls, then let calls through; listed with what remains, deleted', async () => {
    const created = await control<{ id: string }>('POST', `/test-accounts/${hubId}/faults`, {
      method: 'POST',
      path: '/crm/v3/objects/{objectType}',
      status: 502,
      count: 2,
    });
    expect(created.status).toBe(201);
    const other = await control<{ id: string }>('POST', `/test-accounts/${hubId}/faults`, {
      path: '/crm/v3/objects/deals',
      status: 504,
      count: 5,
    });
    const first = await api('POST', '/crm/v3/objects/companies', token, { properties: { name: 'Faulted' } });
    expect(first).toMatchObject({
      status: 502,
      body: { status: 'error', category: 'BAD_GATEWAY', correlationId: expect.any(String) },
    });
    // A GET does not match the POST fault.
    expect((await api('GET', '/crm/v3/objects/companies', token)).status).toBe(200);
    const listed = await control<{ results: unknown[] }>('GET', `/test-accounts/${hubId}/faults`);
    expect(listed.body.results).toEqual([
      {
        id: created.body.id,
        method: 'POST',
        path: '/crm/v3/objects/{objectType}',
        status: 502,
        count: 2,
        remaining: 1,
        policyName: null,
        delayMs: 0,
      },
      {
        id: other.body.id,
        method: null,
        path: '/crm/v3/objects/deals',
        status: 504,
        count: 5,
        remaining: 5,
        policyName: null,
        delayMs: 0,
      },
    ]);
    expect((await api('POST', '/crm/v3/objects/companies', token, { properties: { name: 'Faulted' } })).status).toBe(
      502,
    );
    expect((await api('POST', '/crm/v3/objects/companies', token, { properties: { name: 'Through' } })).status).toBe(
      201,
    );
    // The prefix fault matches its path and below, not its siblings.
    expect((await api('GET', '/crm/v3/objects/deals', token)).status).toBe(504);
    expect((await api('GET', '/crm/v3/objects/dealsx', token)).status).toBe(400);
    expect((await control('DELETE', `/test-accounts/${hubId}/faults/${other.body.id}`)).status).toBe(204);
    expect((await control('DELETE', `/test-accounts/${hubId}/faults/${other.body.id}`)).status).toBe(404);
    expect((await api('GET', '/crm/v3/objects/deals', token)).status).toBe(200);
  });

  it('answer a 429 exactly as the rate limiter does', async () => {
    await control('POST', `/test-accounts/${hubId}/faults`, {
      path: '/crm/v3/objects/contacts',
      status: 429,
      count: 1,
    });
    const limited = await api('GET', '/crm/v3/objects/contacts', token);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({
      status: 'error',
      message: 'You have reached your ten_secondly_rolling limit.',
      errorType: 'RATE_LIMIT',
      policyName: 'TEN_SECONDLY_ROLLING',
      category: 'RATE_LIMITS',
    });
    expect(limited.headers.get('x-hubspot-ratelimit-interval-milliseconds')).toBe('10000');
    expect(limited.headers.get('x-hubspot-ratelimit-remaining')).toBe('0');

    await control('POST', `/test-accounts/${hubId}/faults`, {
      path: '/crm/v3/objects/contacts',
      status: 429,
      count: 1,
      policyName: 'SECONDLY',
    });
    const secondly = await api('GET', '/crm/v3/objects/contacts', token);
    expect(secondly.body).toMatchObject({ message: 'You have reached your secondly limit.', policyName: 'SECONDLY' });
    const mismatched = await control('POST', `/test-accounts/${hubId}/faults`, {
      path: '/x',
      status: 503,
      count: 1,
      policyName: 'SECONDLY',
    });
    expect(mismatched).toMatchObject({ status: 400, body: { context: { policyName: ['SECONDLY'] } } });
  });

  it('are counted exactly under concurrency', async () => {
    await control('POST', `/test-accounts/${hubId}/faults`, { path: '/crm/v3/objects/tickets', status: 503, count: 5 });
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => api('GET', '/crm/v3/objects/tickets', token).then((answer) => answer.status)),
    );
    expect(answers.filter((status) => status === 503)).toHaveLength(5);
    expect(answers.filter((status) => status === 200)).toHaveLength(15);
    const listed = await control<{ results: unknown[] }>('GET', `/test-accounts/${hubId}/faults`);
    expect(listed.body.results).toEqual([]);
  });

  it('never reach the handler: a faulted create writes nothing and reads only the faults', async () => {
    await control('POST', `/test-accounts/${hubId}/faults`, {
      path: '/crm/v3/objects/products',
      status: 500,
      count: 1,
    });
    const { result, commands } = await recordCommands(() =>
      api('POST', '/crm/v3/objects/products', token, { properties: { name: 'Never written' } }),
    );
    expect(result.status).toBe(500);
    // The account's faults and the count taken; the spent fault stays until a create reclaims its place.
    expect(commands.map((command) => command.commandClass.name).sort()).toEqual(['QueryCommand', 'UpdateCommand']);
    const search = await api('POST', '/crm/v3/objects/products/search', token, {
      filterGroups: [{ filters: [{ propertyName: 'name', operator: 'EQ', value: 'Never written' }] }],
    });
    expect(search.body.total).toBe(0);
  });

  it('are retried through by the official SDK (an injected 429 and a 503)', async () => {
    await control('POST', `/test-accounts/${hubId}/faults`, {
      method: 'POST',
      path: '/crm/v3/objects/contacts',
      status: 429,
      count: 1,
      policyName: 'SECONDLY',
    });
    await control('POST', `/test-accounts/${hubId}/faults`, {
      method: 'POST',
      path: '/crm/v3/objects/contacts',
      status: 503,
      count: 1,
    });
    const client = new Client({ accessToken: token, basePath: gateway.baseUrl, numberOfApiCallRetries: 3 });
    const created = await client.crm.contacts.basicApi.create({
      properties: { email: 'retried@example.com' },
      associations: [],
    });
    expect(created.properties.email).toBe('retried@example.com');
    const listed = await control<{ results: unknown[] }>('GET', `/test-accounts/${hubId}/faults`);
    expect(listed.body.results).toEqual([]);
  });

  it('reach only a test account: a standard account ignores the fault machinery', async () => {
    const { result, commands } = await recordCommands(() =>
      api('GET', '/crm/v3/objects/contacts', developer.accessToken),
    );
    expect(result.status).toBe(200);
    expect(commands.some((command) => JSON.stringify(command.input).includes('FAULTS#'))).toBe(false);
  });
});

describe('fixtures', () => {
  it('load records and associations and answer their ids', async () => {
    const hubId = await newTestAccount();
    const token = (await installed(hubId)).access_token;
    const loaded = await control<{ ids: Record<string, string> }>('POST', `/test-accounts/${hubId}/fixtures`, {
      records: [
        { ref: 'acme', objectType: 'companies', properties: { name: 'Acme', domain: 'acme.example' } },
        { ref: 'jane', objectType: 'contacts', properties: { email: 'jane@acme.example', firstname: 'Jane' } },
        {
          ref: 'deal',
          objectType: '0-3',
          properties: { dealname: 'Renewal', amount: '1000', dealstage: 'appointmentscheduled' },
        },
      ],
      associations: [
        { from: 'jane', to: 'acme', types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 279 }] },
        { from: 'deal', to: 'jane', types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 3 }] },
      ],
    });
    expect(loaded.status).toBe(201);
    expect(Object.keys(loaded.body.ids).sort()).toEqual(['acme', 'deal', 'jane']);
    const jane = await api(
      'GET',
      `/crm/v3/objects/contacts/${loaded.body.ids.jane}?properties=email,firstname&associations=companies,deals`,
      token,
    );
    expect(jane.body).toMatchObject({
      properties: { email: 'jane@acme.example', firstname: 'Jane' },
      associations: {
        companies: { results: [expect.objectContaining({ id: loaded.body.ids.acme })] },
        deals: { results: [expect.objectContaining({ id: loaded.body.ids.deal })] },
      },
    });
  });

  it('write every pair of a record with many associations and of linked chains, each pair once', async () => {
    const hubId = await newTestAccount();
    const token = (await installed(hubId)).access_token;
    const contacts = Array.from({ length: 120 }, (_, index) => ({
      ref: `c${index}`,
      objectType: 'contacts',
      properties: { email: `c${index}@many.example` },
    }));
    const chain = ['k0', 'k1', 'k2', 'k3'].map((ref) => ({ ref, objectType: 'companies', properties: { name: ref } }));
    const loaded = await control<{ ids: Record<string, string> }>('POST', `/test-accounts/${hubId}/fixtures`, {
      records: [{ ref: 'acme', objectType: 'companies', properties: { name: 'Acme' } }, ...contacts, ...chain],
      associations: [
        // Primary (1), which also holds the unlabeled type (279): more pairs of one company than one write takes.
        ...contacts.map(({ ref }) => ({
          from: ref,
          to: 'acme',
          types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 1 }],
        })),
        ...[
          ['k0', 'k1'],
          ['k1', 'k2'],
          ['k2', 'k3'],
        ].map(([from, to]) => ({
          from,
          to,
          types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 450 }],
        })),
      ],
    });
    expect(loaded.status).toBe(201);
    const { ids } = loaded.body;

    const ofAcme = await api('GET', `/crm/v4/objects/companies/${ids.acme}/associations/contacts?limit=500`, token);
    const acmeContacts = (ofAcme.body.results as { toObjectId: number }[]).map((result) => String(result.toObjectId));
    expect(acmeContacts.sort()).toEqual(contacts.map(({ ref }) => ids[ref]).sort());
    const ofContact = await api('GET', `/crm/v4/objects/contacts/${ids.c97}/associations/companies`, token);
    expect(ofContact.body.results).toEqual([
      {
        toObjectId: Number(ids.acme),
        associationTypes: expect.arrayContaining([
          { category: 'HUBSPOT_DEFINED', typeId: 1, label: 'Primary' },
          { category: 'HUBSPOT_DEFINED', typeId: 279, label: null },
        ]),
      },
    ]);
    for (const [ref, linked] of [
      ['k0', ['k1']],
      ['k1', ['k0', 'k2']],
      ['k3', ['k2']],
    ] as const) {
      const ofCompany = await api('GET', `/crm/v4/objects/companies/${ids[ref]}/associations/companies`, token);
      expect({
        ref,
        linked: (ofCompany.body.results as { toObjectId: number }[]).map((result) => String(result.toObjectId)).sort(),
      }).toEqual({ ref, linked: linked.map((other) => ids[other]).sort() });
    }
  });

  it("load records of the account's custom object types", async () => {
    const hubId = await newTestAccount();
    const token = (await installed(hubId)).access_token;
    const schema = await api('POST', '/crm-object-schemas/v3/schemas', token, {
      name: 'machines',
      labels: { singular: 'Machine', plural: 'Machines' },
      properties: [{ name: 'serial', label: 'Serial', type: 'string', fieldType: 'text' }],
      requiredProperties: ['serial'],
      primaryDisplayProperty: 'serial',
      associatedObjects: ['CONTACT'],
    });
    expect(schema.status).toBe(201);
    const typeId = String(schema.body.objectTypeId);
    const missingRequired = await control('POST', `/test-accounts/${hubId}/fixtures`, {
      records: [{ ref: 'm', objectType: typeId, properties: {} }],
    });
    expect(missingRequired).toMatchObject({ status: 400, body: { context: { properties: ['serial'] } } });
    const loaded = await control<{ ids: Record<string, string> }>('POST', `/test-accounts/${hubId}/fixtures`, {
      records: [
        // Any token the objects API takes in its path: the fully qualified name, the type id.
        { ref: 'm', objectType: String(schema.body.fullyQualifiedName), properties: { serial: 'SN-1' } },
        { ref: 'n', objectType: typeId, properties: { serial: 'SN-2' } },
      ],
    });
    expect({ status: loaded.status, ids: Object.keys(loaded.body.ids ?? {}) }).toEqual({
      status: 201,
      ids: ['m', 'n'],
    });
    const read = await api('GET', `/crm/v3/objects/${typeId}/${loaded.body.ids.n}?properties=serial`, token);
    expect(read.body).toMatchObject({ properties: { serial: 'SN-2' } });
  });

  it('write nothing when a record or an association is refused, answering what the API would', async () => {
    const hubId = await newTestAccount();
    const token = (await installed(hubId)).access_token;
    const badProperty = await control('POST', `/test-accounts/${hubId}/fixtures`, {
      records: [
        { ref: 'ok', objectType: 'contacts', properties: { email: 'ok@example.com' } },
        { ref: 'bad', objectType: 'contacts', properties: { no_such_property: 'x' } },
      ],
    });
    expect(badProperty).toMatchObject({ status: 400, body: { category: 'VALIDATION_ERROR' } });
    const duplicate = await control('POST', `/test-accounts/${hubId}/fixtures`, {
      records: [
        { ref: 'a', objectType: 'contacts', properties: { email: 'same@example.com' } },
        { ref: 'b', objectType: 'contacts', properties: { email: 'same@example.com' } },
      ],
    });
    expect(duplicate).toMatchObject({ status: 400, body: { context: { email: ['same@example.com'] } } });
    const badType = await control('POST', `/test-accounts/${hubId}/fixtures`, {
      records: [
        { ref: 'a', objectType: 'contacts', properties: { email: 'a@example.com' } },
        { ref: 'c', objectType: 'companies', properties: { name: 'C' } },
      ],
      associations: [{ from: 'a', to: 'c', types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 4 }] }],
    });
    expect(badType.status).toBe(400);
    const unknownRef = await control('POST', `/test-accounts/${hubId}/fixtures`, {
      records: [{ ref: 'a', objectType: 'contacts', properties: { email: 'a@example.com' } }],
      associations: [
        { from: 'a', to: 'nobody', types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 279 }] },
      ],
    });
    expect(unknownRef).toMatchObject({ status: 400, body: { context: { 'associations[0].to': ['nobody'] } } });
    const itself = await control('POST', `/test-accounts/${hubId}/fixtures`, {
      records: [{ ref: 'a', objectType: 'companies', properties: { name: 'A' } }],
      associations: [
        { from: 'a', to: 'a', types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 450 }] },
      ],
    });
    expect(itself).toMatchObject({ status: 400, body: { context: { 'associations[0].to': ['a'] } } });
    const existing = await api('POST', '/crm/v3/objects/contacts', token, {
      properties: { email: 'taken@example.com' },
    });
    expect(existing.status).toBe(201);
    const taken = await control('POST', `/test-accounts/${hubId}/fixtures`, {
      records: [
        { ref: 'x', objectType: 'companies', properties: { name: 'X' } },
        { ref: 'y', objectType: 'contacts', properties: { email: 'taken@example.com' } },
      ],
    });
    expect(taken.status).toBe(409);
    const tooMany = await control('POST', `/test-accounts/${hubId}/fixtures`, {
      records: Array.from({ length: 1001 }, (_, index) => ({
        ref: `r${index}`,
        objectType: 'companies',
        properties: { name: 'N' },
      })),
    });
    expect(tooMany.status).toBe(400);

    for (const type of ['contacts', 'companies']) {
      const listed = await api('GET', `/crm/v3/objects/${type}?limit=100&properties=email,name`, token);
      expect({ type, results: (listed.body.results as unknown[]).length }).toEqual({
        type,
        results: type === 'contacts' ? 1 : 0,
      });
    }
  });
});

describe('fixtures with lists', () => {
  const people = [
    { ref: 'acme', objectType: 'companies', properties: { name: 'Acme' } },
    { ref: 'jane', objectType: 'contacts', properties: { email: 'jane@lists.example' } },
    { ref: 'john', objectType: 'contacts', properties: { email: 'john@lists.example' } },
  ];

  /** A list's members' record ids, through the lists API. */
  async function membersOf(token: string, listId: string): Promise<string[]> {
    const page = await api('GET', `/crm/v3/lists/${listId}/memberships?limit=250`, token);
    expect(page.status).toBe(200);
    return (page.body.results as { recordId: string }[]).map((member) => member.recordId).sort();
  }

  it('create lists and their members by ref and answer the lists ids by ref beside the records ids', async () => {
    const hubId = await newTestAccount();
    const token = (await installed(hubId)).access_token;

    const loaded = await control<{ ids: Record<string, string>; listIds: Record<string, string> }>(
      'POST',
      `/test-accounts/${hubId}/fixtures`,
      {
        records: people,
        lists: [
          {
            ref: 'customers',
            name: 'Customers',
            objectTypeId: '0-1',
            processingType: 'MANUAL',
            members: ['jane', 'john'],
          },
          // A type named as a record's objectType names it; a repeated member is added once, as the API adds it.
          {
            ref: 'accounts',
            name: 'Accounts',
            objectType: 'companies',
            processingType: 'MANUAL',
            members: ['acme', 'acme'],
          },
          { name: 'Empty', objectType: 'contacts', processingType: 'MANUAL' },
        ],
      },
    );

    expect(loaded.status).toBe(201);
    const { ids, listIds } = loaded.body;
    expect(Object.keys(listIds).sort()).toEqual(['accounts', 'customers']);
    const customers = await api('GET', `/crm/v3/lists/${listIds.customers}`, token);
    expect(customers.body).toMatchObject({
      list: { name: 'Customers', objectTypeId: '0-1', processingType: 'MANUAL', size: 2 },
    });
    expect(await membersOf(token, listIds.customers ?? '')).toEqual([ids.jane, ids.john].sort());
    expect(await membersOf(token, listIds.accounts ?? '')).toEqual([ids.acme]);
    const empty = await api('GET', '/crm/v3/lists/object-type-id/0-1/name/Empty', token);
    expect(empty.body).toMatchObject({ list: { name: 'Empty', size: 0 } });
    const ofJane = await api('GET', `/crm/v3/lists/records/0-1/${ids.jane}/memberships`, token);
    expect((ofJane.body.results as { listId: string }[]).map((entry) => entry.listId)).toEqual([listIds.customers]);
    await removeTestAccount(hubId);
  });

  it('create a DYNAMIC list whose members are the records of the call its filters match, and that refuses members by ref', async () => {
    const hubId = await newTestAccount();
    const token = (await installed(hubId)).access_token;
    const janes = {
      filterBranchType: 'OR',
      filters: [],
      filterBranches: [
        {
          filterBranchType: 'AND',
          filterBranches: [],
          filters: [
            {
              filterType: 'PROPERTY',
              property: 'email',
              operation: { operationType: 'STRING', operator: 'STARTS_WITH', value: 'jane' },
            },
          ],
        },
      ],
    };

    const loaded = await control<{ ids: Record<string, string>; listIds: Record<string, string> }>(
      'POST',
      `/test-accounts/${hubId}/fixtures`,
      {
        records: people,
        lists: [{ ref: 'janes', name: 'Janes', objectTypeId: '0-1', processingType: 'DYNAMIC', filterBranch: janes }],
      },
    );

    expect(loaded.status).toBe(201);
    const { ids, listIds } = loaded.body;
    expect(await membersOf(token, listIds.janes ?? '')).toEqual([ids.jane]);
    const list = await api('GET', `/crm/v3/lists/${listIds.janes}`, token);
    expect(list.body).toMatchObject({ list: { processingType: 'DYNAMIC', size: 1 } });
    const refused = await control('POST', `/test-accounts/${hubId}/fixtures`, {
      records: [{ ref: 'jim', objectType: 'contacts', properties: { email: 'jim@lists.example' } }],
      lists: [{ name: 'Jims', objectTypeId: '0-1', processingType: 'DYNAMIC', filterBranch: janes, members: ['jim'] }],
    });
    expect(refused).toMatchObject({ status: 400, body: { category: 'VALIDATION_ERROR' } });
    await removeTestAccount(hubId);
  });

  it('refuse a list before anything is written, naming the field by its path', async () => {
    const hubId = await newTestAccount();
    const token = (await installed(hubId)).access_token;
    const manual = (name: string, members: string[] = []) => ({
      name,
      objectTypeId: '0-1',
      processingType: 'MANUAL',
      members,
    });
    const taken = await api('POST', '/crm/v3/lists', token, {
      name: 'Taken',
      objectTypeId: '0-2',
      processingType: 'MANUAL',
    });
    expect(taken.status).toBe(200);
    const refusals: [string, unknown[], number, string][] = [
      ['an unknown member ref', [manual('A'), manual('B', ['jane', 'nobody'])], 400, 'lists[1].members[1]'],
      ['a member of another type', [manual('A', ['acme'])], 400, 'lists[0].members[0]'],
      ['a name twice (ignoring case)', [manual('Same'), manual('SAME')], 400, 'lists[1].name'],
      [
        'a ref twice',
        [
          { ...manual('A'), ref: 'l' },
          { ...manual('B'), ref: 'l' },
        ],
        400,
        'lists[1].ref',
      ],
      ['a blank name', [manual(' ')], 400, 'lists[0].name'],
      ['an unknown type id', [{ ...manual('A'), objectTypeId: '0-999' }], 400, 'lists[0].objectTypeId'],
      [
        'an unknown type name',
        [{ name: 'A', objectType: 'gadgets', processingType: 'MANUAL' }],
        400,
        'lists[0].objectType',
      ],
      ['both type fields', [{ ...manual('A'), objectType: 'contacts' }], 400, 'lists[0].objectTypeId'],
      // The create's own rules, answered before any record is written (an earlier list of the call is removed).
      [
        'a processingType the API refuses',
        [manual('A'), { ...manual('B'), processingType: 'STATIC' }],
        400,
        'lists[1].processingType',
      ],
      ['a name the account holds', [manual('taken')], 409, 'lists[0].name'],
    ];
    const answers = [];
    for (const [what, lists, status, field] of refusals) {
      const answer = await control('POST', `/test-accounts/${hubId}/fixtures`, { records: people, lists });
      answers.push({ what, status: answer.status, fields: Object.keys((answer.body.context as object) ?? {}) });
      expect({ what, status, fields: [field] }).toEqual(answers.at(-1));
    }

    const contacts = await api('GET', '/crm/v3/objects/contacts', token);
    expect(contacts.body.results).toEqual([]);
    const lists = await api('POST', '/crm/v3/lists/search', token, {});
    expect((lists.body.lists as { name: string }[]).map((list) => list.name)).toEqual(['Taken']);
    // The list the refused call had created first is gone with its name.
    const again = await control('POST', `/test-accounts/${hubId}/fixtures`, { records: people, lists: [manual('A')] });
    expect(again.status).toBe(201);
    await removeTestAccount(hubId);
  });

  it("remove a refused load's DYNAMIC lists from the lists their IN_LIST filters name", async () => {
    const hubId = await newTestAccount();
    const token = (await installed(hubId)).access_token;
    const named = await api('POST', '/crm/v3/lists', token, {
      name: 'Named',
      objectTypeId: '0-1',
      processingType: 'MANUAL',
    });
    expect(named.status).toBe(200);
    const namedId = (named.body.list as { listId: string }).listId;
    // The second list's create refuses it after the first was created: the first is removed.
    const refused = await control('POST', `/test-accounts/${hubId}/fixtures`, {
      lists: [
        {
          name: 'Naming',
          objectTypeId: '0-1',
          processingType: 'DYNAMIC',
          filterBranch: {
            filterBranchType: 'OR',
            filters: [],
            filterBranches: [
              {
                filterBranchType: 'AND',
                filterBranches: [],
                filters: [{ filterType: 'IN_LIST', listId: namedId, operator: 'IN_LIST' }],
              },
            ],
          },
        },
        { name: 'Refused', objectTypeId: '0-1', processingType: 'STATIC' },
      ],
    });
    expect(refused).toMatchObject({ status: 400, body: { context: { 'lists[1].processingType': ['STATIC'] } } });
    expect((await api('GET', '/crm/v3/lists/object-type-id/0-1/name/Naming', token)).status).toBe(404);
    const search = await api('POST', '/crm/v3/lists/search', token, { listIds: [namedId] });
    expect(
      (search.body.lists as { additionalProperties: Record<string, string> }[])[0]?.additionalProperties
        .hs_list_reference_count,
    ).toBe('0');
    expect((await api('DELETE', `/crm/v3/lists/${namedId}`, token)).status).toBe(204);
    await removeTestAccount(hubId);
  });

  it('refuse more lists or members than one call takes with a 400 naming the field', async () => {
    const hubId = await newTestAccount();
    const tooManyLists = await control('POST', `/test-accounts/${hubId}/fixtures`, {
      lists: Array.from({ length: maxFixtureLists + 1 }, (_, index) => ({
        name: `L${index}`,
        objectTypeId: '0-1',
        processingType: 'MANUAL',
      })),
    });
    expect(tooManyLists).toMatchObject({ status: 400, body: { category: 'VALIDATION_ERROR' } });
    expect(JSON.stringify(tooManyLists.body)).toContain('lists');
    const half = Math.ceil((maxFixtureMembers + 1) / 2);
    const tooManyMembers = await control('POST', `/test-accounts/${hubId}/fixtures`, {
      records: people,
      lists: ['A', 'B'].map((name) => ({
        name,
        objectTypeId: '0-1',
        processingType: 'MANUAL',
        members: Array.from({ length: half }, () => 'jane'),
      })),
    });
    expect(tooManyMembers).toMatchObject({
      status: 400,
      body: { category: 'VALIDATION_ERROR', context: { 'lists[1].members': [String(half * 2)] } },
    });
    await removeTestAccount(hubId);
  });
});

describe('reset', () => {
  it("removes the account's CRM data and keeps its installs", async () => {
    const hubId = await newTestAccount();
    const token = (await installed(hubId)).access_token;
    await control('POST', `/test-accounts/${hubId}/fixtures`, {
      records: [{ ref: 'c', objectType: 'contacts', properties: { email: 'reset@example.com' } }],
    });
    expect(
      (
        await api('POST', '/crm/v3/properties/companies', token, {
          name: 'reset_me',
          label: 'Reset me',
          type: 'string',
          fieldType: 'text',
          groupName: 'companyinformation',
        })
      ).status,
    ).toBe(201);
    expect((await control('POST', `/test-accounts/${hubId}/reset`)).status).toBe(204);
    const contacts = await api('GET', '/crm/v3/objects/contacts', token);
    expect(contacts).toMatchObject({ status: 200, body: { results: [] } });
    expect((await api('GET', '/crm/v3/properties/companies/reset_me', token)).status).toBe(404);
    // The same email can be taken again, and the owner is still there.
    expect(
      (await api('POST', '/crm/v3/objects/contacts', token, { properties: { email: 'reset@example.com' } })).status,
    ).toBe(201);
    const owners = await api('GET', '/crm/v3/owners', token);
    expect((owners.body.results as unknown[]).length).toBe(1);
  });

  it('removes lists, their members and their names, so the same fixtures load again', async () => {
    const hubId = await newTestAccount();
    const token = (await installed(hubId)).access_token;
    const fixtures = {
      records: [{ ref: 'c', objectType: 'contacts', properties: { email: 'listed@example.com' } }],
      lists: [{ ref: 'l', name: 'Newsletter', objectTypeId: '0-1', processingType: 'MANUAL', members: ['c'] }],
    };
    const first = await control<{ ids: Record<string, string>; listIds: Record<string, string> }>(
      'POST',
      `/test-accounts/${hubId}/fixtures`,
      fixtures,
    );
    expect(first.status).toBe(201);

    expect((await control('POST', `/test-accounts/${hubId}/reset`)).status).toBe(204);

    expect((await api('GET', `/crm/v3/lists/${first.body.listIds.l}`, token)).status).toBe(404);
    expect((await api('GET', '/crm/v3/lists/object-type-id/0-1/name/Newsletter', token)).status).toBe(404);
    expect((await api('GET', `/crm/v3/lists/${first.body.listIds.l}/memberships`, token)).status).toBe(404);
    const ofContact = await api('GET', `/crm/v3/lists/records/0-1/${first.body.ids.c}/memberships`, token);
    expect(ofContact.body.results).toEqual([]);
    const second = await control<{ ids: Record<string, string>; listIds: Record<string, string> }>(
      'POST',
      `/test-accounts/${hubId}/fixtures`,
      fixtures,
    );
    expect(second.status).toBe(201);
    const members = await api('GET', `/crm/v3/lists/${second.body.listIds.l}/memberships`, token);
    expect(members.body).toMatchObject({ total: 1, results: [{ recordId: second.body.ids.c }] });
    const lists = await api('POST', '/crm/v3/lists/search', token, {});
    expect(lists.body).toMatchObject({ total: 1, lists: [{ name: 'Newsletter' }] });
    await removeTestAccount(hubId);
  });
});
