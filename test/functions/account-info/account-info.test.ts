import { bearer, install, useTestGateway, type InstalledTokens } from '../../support/harness';
import { sandboxControl } from '../../support/sandbox-control';

/**
 * The account info API (`/account-info/v3/...` and `/account-info/{version}/...`): the token's
 * account's details and, having no private apps, an empty daily usage list.
 */
const gateway = useTestGateway();
let installed: InstalledTokens;

beforeAll(async () => {
  installed = await install(gateway);
});

async function get(path: string, token = installed.accessToken): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${gateway.baseUrl}${path}`, { headers: bearer(token) });
  return { status: response.status, body: await response.json() };
}

describe('GET /account-info/v3/details', () => {
  it('answers 200 with the account id, STANDARD and the documented defaults', async () => {
    const answer = await get('/account-info/v3/details');

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      portalId: installed.hubId,
      accountType: 'STANDARD',
      timeZone: 'US/Eastern',
      companyCurrency: 'USD',
      additionalCurrencies: [],
      utcOffset: expect.stringMatching(/^-0[45]:00$/),
      utcOffsetMilliseconds: expect.any(Number),
      uiDomain: 'app.hubspot.com',
      dataHostingLocation: 'na1',
    });
  });

  it('states the offset in milliseconds as the same offset as the text', async () => {
    const { utcOffset, utcOffsetMilliseconds } = (await get('/account-info/v3/details')).body as {
      utcOffset: string;
      utcOffsetMilliseconds: number;
    };

    expect(utcOffsetMilliseconds).toBe(-Number(utcOffset.slice(1, 3)) * 3_600_000);
  });

  it('answers the same on 2026-03 and 2026-09', async () => {
    const numbered = await get('/account-info/v3/details');

    for (const version of ['2026-03', '2026-09']) {
      expect(await get(`/account-info/${version}/details`)).toEqual(numbered);
    }
  });

  it('answers DEVELOPER_TEST for a test account of the sandbox controls', async () => {
    const control = <T>(method: string, path: string, body?: unknown) =>
      sandboxControl<T>(gateway, installed.developerApiKey, method, path, body);
    const created = await control<{ hubId: number }>('POST', '/test-accounts', {});
    const tokens = await control<{ access_token: string }>('POST', `/test-accounts/${created.body.hubId}/installs`, {
      appId: installed.appId,
      scopes: ['oauth'],
    });
    expect(tokens.status).toBe(201);

    const answer = await get('/account-info/2026-03/details', tokens.body.access_token);

    expect(answer).toMatchObject({
      status: 200,
      body: { portalId: created.body.hubId, accountType: 'DEVELOPER_TEST' },
    });
  });

  it('answers 403 MISSING_SCOPES to a token without the oauth scope', async () => {
    const narrow = await install(gateway, { scopes: ['crm.objects.companies.read'] });

    const answer = await get('/account-info/v3/details', narrow.accessToken);

    expect(answer).toMatchObject({ status: 403, body: { category: 'MISSING_SCOPES' } });
  });

  it('answers an unknown version 404', async () => {
    expect((await get('/account-info/2025-01/details')).status).toBe(404);
  });
});

describe('GET /account-info/v3/api-usage/daily/private-apps', () => {
  it('answers 200 with no results on v3, 2026-03 and 2026-09: the service has no private apps', async () => {
    for (const path of [
      '/account-info/v3/api-usage/daily/private-apps',
      '/account-info/2026-03/api-usage/daily/private-apps',
      '/account-info/2026-09/api-usage/daily/private-apps',
    ]) {
      expect(await get(path)).toEqual({ status: 200, body: { results: [] } });
    }
  });
});
