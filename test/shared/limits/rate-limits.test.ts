import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { Client } from '@hubspot/api-client';
import { advanceClock, freezeClock } from '../../../shared/base/clock';
import { createApp, updateAccount } from '../../../shared/admin/provisioning';
import {
  bearer,
  install,
  jsonOf,
  postForm,
  signTestAccessToken,
  useTestGateway,
  type InstalledTokens,
  type TokenJson,
} from '../../support/harness';

const gateway = useTestGateway();
const companies = '/crm/v3/objects/companies';

const getCompanies = (token: string, baseUrl = gateway.baseUrl) =>
  fetch(`${baseUrl}${companies}?limit=1`, { headers: bearer(token) });
const createRecord = (token: string) =>
  fetch(`${gateway.baseUrl}${companies}`, {
    method: 'POST',
    headers: { ...bearer(token), 'content-type': 'application/json' },
    body: JSON.stringify({ properties: { name: 'Limited' } }),
  });

async function statusesOf(responses: Promise<Response>[]): Promise<number[]> {
  return Promise.all(
    responses.map(async (pending) => {
      const response = await pending;
      await response.arrayBuffer();
      return response.status;
    }),
  );
}

const count = (statuses: number[], predicate: (status: number) => boolean): number => statuses.filter(predicate).length;

describe('per-install limit: N requests per rolling 10 s', () => {
  it('answers the first call with the rate-limit headers of the default limit (110)', async () => {
    const installed = await install(gateway, { limits: {} });

    const first = await getCompanies(installed.accessToken);
    const second = await getCompanies(installed.accessToken);

    expect(first.status).toBe(200);
    expect(first.headers.get('x-hubspot-ratelimit-interval-milliseconds')).toBe('10000');
    expect(first.headers.get('x-hubspot-ratelimit-max')).toBe('110');
    expect(first.headers.get('x-hubspot-ratelimit-remaining')).toBe('109');
    expect(second.headers.get('x-hubspot-ratelimit-remaining')).toBe('108');
  });

  it('gives exactly 110 successes for a burst of 130, no 5xx, the documented 429; other installs keep answering 200', async () => {
    const installed = await install(gateway, { limits: {} });
    const otherAccount = await install(gateway, { limits: {} });
    const otherApp = await createApp({
      name: 'Same account, other app',
      redirectUris: ['https://other.example/cb'],
      scopes: ['crm.objects.companies.read'],
      optionalScopes: [],
    });
    const otherAppToken = signTestAccessToken({
      appId: otherApp.appId,
      hubId: installed.hubId,
      scopes: ['crm.objects.companies.read'],
      rateLimits: { tenSecondly: 110, searchPerSecond: 5 },
    });

    freezeClock(); // the burst is one moment, however long a loaded machine takes to serve it
    const burst = Array.from({ length: 130 }, () => getCompanies(installed.accessToken));
    const [statuses, otherAccountStatuses, otherAppStatuses] = await Promise.all([
      statusesOf(burst),
      statusesOf(Array.from({ length: 5 }, () => getCompanies(otherAccount.accessToken))),
      statusesOf(Array.from({ length: 5 }, () => getCompanies(otherAppToken))),
    ]);

    expect(count(statuses, (status) => status === 200)).toBe(110);
    expect(count(statuses, (status) => status === 429)).toBe(20);
    expect(count(statuses, (status) => status >= 500)).toBe(0);
    expect(otherAccountStatuses).toEqual([200, 200, 200, 200, 200]);
    expect(otherAppStatuses).toEqual([200, 200, 200, 200, 200]);

    const limited = await getCompanies(installed.accessToken);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('content-type')).toMatch(/^application\/json/);
    expect(limited.headers.get('x-hubspot-ratelimit-max')).toBe('110');
    expect(limited.headers.get('x-hubspot-ratelimit-remaining')).toBe('0');
    const body = await jsonOf<Record<string, unknown>>(limited);
    expect(body).toEqual({
      status: 'error',
      message: 'You have reached your ten_secondly_rolling limit.',
      errorType: 'RATE_LIMIT',
      correlationId: limited.headers.get('x-hubspot-correlation-id'),
      policyName: 'TEN_SECONDLY_ROLLING',
      category: 'RATE_LIMITS',
    });
  });

  it('rolls: a window starting at any moment holds at most N (no reset at a fixed boundary)', async () => {
    const installed = await install(gateway, { limits: { tenSecondlyLimit: 4 } });
    freezeClock();

    const early = await statusesOf([getCompanies(installed.accessToken), getCompanies(installed.accessToken)]);
    advanceClock(6_000);
    const later = await statusesOf([
      getCompanies(installed.accessToken),
      getCompanies(installed.accessToken),
      getCompanies(installed.accessToken),
    ]);
    advanceClock(3_900); // 9.9 s after the first two: all four successes are still inside one window
    const stillFull = (await getCompanies(installed.accessToken)).status;
    advanceClock(400); // 10.3 s after the first two: they have left the window, the later two have not
    const afterFirstLeft = await statusesOf([
      getCompanies(installed.accessToken),
      getCompanies(installed.accessToken),
      getCompanies(installed.accessToken),
    ]);

    expect(early).toEqual([200, 200]);
    expect(count(later, (status) => status === 200)).toBe(2);
    expect(count(later, (status) => status === 429)).toBe(1);
    expect(stillFull).toBe(429);
    expect(count(afterFirstLeft, (status) => status === 200)).toBe(2);
    expect(count(afterFirstLeft, (status) => status === 429)).toBe(1);
  });

  it('performs no write over the limit', async () => {
    const installed = await install(gateway, { limits: { tenSecondlyLimit: 2 } });

    const statuses = [
      (await createRecord(installed.accessToken)).status,
      (await createRecord(installed.accessToken)).status,
      (await createRecord(installed.accessToken)).status,
    ];
    advanceClock(11_000);
    const list = await fetch(`${gateway.baseUrl}${companies}?limit=100`, { headers: bearer(installed.accessToken) });

    expect(statuses).toEqual([201, 201, 429]);
    expect(((await list.json()) as { results: unknown[] }).results).toHaveLength(2);
  });

  it('limits every token-authenticated family (timeline too) and carries the headers on error answers', async () => {
    const installed = await install(gateway, { limits: { tenSecondlyLimit: 3 } });

    const timeline = await fetch(`${gateway.baseUrl}/integrations/v1/${installed.appId}/timeline/event-types`, {
      headers: bearer(installed.accessToken),
    });
    const missing = await fetch(`${gateway.baseUrl}${companies}/1093412345678999`, {
      headers: bearer(installed.accessToken),
    });
    const properties = await fetch(`${gateway.baseUrl}/crm/v3/properties/companies`, {
      headers: bearer(installed.accessToken),
    });
    const over = await fetch(`${gateway.baseUrl}/crm/v4/associations/companies/contacts/labels`, {
      headers: bearer(installed.accessToken),
    });

    expect([timeline.status, missing.status, properties.status, over.status]).toEqual([200, 404, 200, 429]);
    expect(missing.headers.get('x-hubspot-ratelimit-remaining')).toBe('1');
  });

  it('does not limit the OAuth routes or accounts whose limit is 0', async () => {
    const installed = await install(gateway, { limits: { tenSecondlyLimit: 1 } });
    const unlimited = await install(gateway);

    const tokenCalls = await statusesOf(
      Array.from({ length: 3 }, () =>
        postForm(gateway.baseUrl, '/oauth/v1/token', {
          grant_type: 'refresh_token',
          client_id: installed.clientId,
          client_secret: installed.clientSecret,
          refresh_token: installed.refreshToken,
        }),
      ),
    );
    const tokenResponse = await postForm(gateway.baseUrl, '/oauth/2026-03/token/introspect', {
      token: installed.accessToken,
      client_id: installed.clientId,
      client_secret: installed.clientSecret,
    });
    const unlimitedCalls = await statusesOf(Array.from({ length: 20 }, () => getCompanies(unlimited.accessToken)));
    const unlimitedOne = await getCompanies(unlimited.accessToken);

    expect(tokenCalls).toEqual([200, 200, 200]);
    expect(tokenResponse.headers.get('x-hubspot-ratelimit-max')).toBeNull();
    expect(unlimitedCalls.every((status) => status === 200)).toBe(true);
    expect(unlimitedOne.headers.get('x-hubspot-ratelimit-max')).toBeNull();
  });

  it('applies an account update to the tokens issued after it', async () => {
    const installed = await install(gateway, { limits: {} });
    await updateAccount(installed.hubId, { tenSecondlyLimit: 7 });

    const refreshed = await jsonOf<TokenJson>(
      await postForm(gateway.baseUrl, '/oauth/v1/token', {
        grant_type: 'refresh_token',
        client_id: installed.clientId,
        client_secret: installed.clientSecret,
        refresh_token: installed.refreshToken,
      }),
    );
    const response = await getCompanies(refreshed.access_token);

    expect(response.headers.get('x-hubspot-ratelimit-max')).toBe('7');
  });
});

describe('the official SDK with numberOfApiCallRetries: 3', () => {
  it('gets through a 429 by itself', async () => {
    const installed = await install(gateway, { limits: { tenSecondlyLimit: 2 } });
    await statusesOf([getCompanies(installed.accessToken), getCompanies(installed.accessToken)]);
    expect((await getCompanies(installed.accessToken)).status).toBe(429);
    const client = new Client({
      accessToken: installed.accessToken,
      basePath: gateway.baseUrl,
      numberOfApiCallRetries: 3,
    });

    const page = await client.crm.companies.basicApi.getPage(1);

    expect(page.results).toEqual([]);
  }, 60_000);
});

describe('two gateway processes on one table', () => {
  let child: ChildProcess | undefined;
  afterAll(() => {
    child?.disconnect();
  });

  function startSecondGateway(): Promise<string> {
    const started = spawn(
      process.execPath,
      ['--import', 'tsx', path.resolve(__dirname, '../../../bin/soak-gateway.ts')],
      {
        env: process.env,
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      },
    );
    child = started;
    return new Promise((resolve, reject) => {
      started.once('exit', (code) => reject(new Error(`second gateway exited with ${String(code)}`)));
      started.on('message', (message: { type?: string; baseUrl?: string }) => {
        if (message.type === 'ready' && message.baseUrl) resolve(message.baseUrl);
      });
    });
  }

  it('share one limit', async () => {
    const secondBaseUrl = await startSecondGateway();
    const installed: InstalledTokens = await install(gateway, { limits: { tenSecondlyLimit: 30 } });

    const statuses = await statusesOf(
      Array.from({ length: 60 }, (_, index) =>
        getCompanies(installed.accessToken, index % 2 === 0 ? gateway.baseUrl : secondBaseUrl),
      ),
    );

    expect(count(statuses, (status) => status === 200)).toBe(30);
    expect(count(statuses, (status) => status === 429)).toBe(30);
  }, 90_000);
});
