import { advanceClock } from '../../../shared/base/clock';
import { isAppInstalled } from '../../../shared/db/oauth-grants';
import { install, jsonOf, postForm, useTestGateway, type TokenJson } from '../../support/harness';

const gateway = useTestGateway();

interface AccessTokenInfoJson {
  token: string;
  user: string;
  hub_domain: string;
  scopes: string[];
  hub_id: number;
  app_id: number;
  expires_in: number;
  user_id: number;
  token_type: string;
  is_private_distribution: boolean;
  signed_access_token: Record<string, unknown>;
}

const getInfo = (token: string) => fetch(`${gateway.baseUrl}/oauth/v1/access-tokens/${encodeURIComponent(token)}`);
const refreshUrl = (token: string) => `${gateway.baseUrl}/oauth/v1/refresh-tokens/${encodeURIComponent(token)}`;

describe('GET /oauth/v1/access-tokens/{token}', () => {
  it('returns every field of AccessTokenInfoResponse', async () => {
    const installed = await install(gateway);

    const response = await getInfo(installed.accessToken);

    expect(response.status).toBe(200);
    const body = await jsonOf<AccessTokenInfoJson>(response);
    expect(body).toMatchObject({
      token: installed.accessToken,
      user: installed.userEmail,
      hub_domain: installed.hubDomain,
      scopes: installed.scopes,
      hub_id: installed.hubId,
      app_id: installed.appId,
      user_id: installed.userId,
      token_type: 'access',
      is_private_distribution: false,
    });
    expect(body.expires_in).toBeGreaterThan(1790);
    expect(body.expires_in).toBeLessThanOrEqual(1800);
  });

  it('fills all 17 fields of signed_access_token', async () => {
    const installed = await install(gateway);

    const body = await jsonOf<AccessTokenInfoJson>(await getInfo(installed.accessToken));

    const signed = body.signed_access_token;
    expect(Object.keys(signed).sort()).toEqual([
      'appId',
      'appInstallId',
      'audience',
      'expiresAt',
      'hubId',
      'hublet',
      'installingUserId',
      'isPrivateDistribution',
      'isServiceAccount',
      'isUserLevel',
      'newSignature',
      'scopeToScopeGroupPks',
      'scopes',
      'signature',
      'trialScopeToScopeGroupPks',
      'trialScopes',
      'userId',
    ]);
    expect(signed).toMatchObject({
      hubId: installed.hubId,
      userId: installed.userId,
      appId: installed.appId,
      hublet: 'na1',
      installingUserId: installed.userId,
      audience: installed.clientId,
    });
    expect(Math.abs(Number(signed.expiresAt) - (Date.now() + 1800_000))).toBeLessThan(10_000);
  });

  it('counts expires_in down with the clock', async () => {
    const installed = await install(gateway);
    advanceClock(600_000);

    const body = await jsonOf<AccessTokenInfoJson>(await getInfo(installed.accessToken));

    expect(body.expires_in).toBeLessThanOrEqual(1200);
    expect(body.expires_in).toBeGreaterThan(1190);
  });

  it('answers 404 with the error object for an expired token', async () => {
    const installed = await install(gateway);
    advanceClock(1801_000);

    const response = await getInfo(installed.accessToken);

    expect(response.status).toBe(404);
    expect(await jsonOf(response)).toMatchObject({
      status: 'error',
      category: 'OBJECT_NOT_FOUND',
      context: { token: ['expired'] },
    });
  });

  it.each([
    ['malformed', 'not-a-token'],
    ['forged', `${Buffer.from('{"v":1}').toString('base64url')}.${'A'.repeat(86)}`],
    ['very long', 'x'.repeat(1000)],
  ])('answers 404 with the error object for a %s token', async (_label, token) => {
    const response = await getInfo(token);

    expect(response.status).toBe(404);
    const body = await jsonOf(response);
    expect(body).toMatchObject({ status: 'error', category: 'OBJECT_NOT_FOUND' });
    expect(body.correlationId).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('GET /oauth/v1/refresh-tokens/{token}', () => {
  it('returns the refresh token metadata', async () => {
    const installed = await install(gateway);

    const response = await fetch(refreshUrl(installed.refreshToken));

    expect(response.status).toBe(200);
    expect(await jsonOf(response)).toEqual({
      token: installed.refreshToken,
      user: installed.userEmail,
      hub_domain: installed.hubDomain,
      scopes: installed.scopes,
      hub_id: installed.hubId,
      client_id: installed.clientId,
      user_id: installed.userId,
      token_type: 'refresh',
    });
  });

  it('answers 404 for an unknown refresh token', async () => {
    const response = await fetch(refreshUrl('na1-unknown'));

    expect(response.status).toBe(404);
    expect(await jsonOf(response)).toMatchObject({ status: 'error', category: 'OBJECT_NOT_FOUND' });
  });
});

describe('DELETE /oauth/v1/refresh-tokens/{token}', () => {
  it('answers 204, after which the refresh grant fails but the access token still works', async () => {
    const installed = await install(gateway);

    const deleted = await fetch(refreshUrl(installed.refreshToken), { method: 'DELETE' });
    const refresh = await postForm(gateway.baseUrl, '/oauth/v1/token', {
      grant_type: 'refresh_token',
      client_id: installed.clientId,
      client_secret: installed.clientSecret,
      refresh_token: installed.refreshToken,
    });
    const info = await getInfo(installed.accessToken);

    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe('');
    expect(refresh.status).toBe(400);
    expect(await jsonOf(refresh)).toMatchObject({ status: 'BAD_REFRESH_TOKEN', error: 'invalid_grant' });
    expect(info.status).toBe(200);
    expect((await jsonOf<AccessTokenInfoJson>(info)).hub_id).toBe(installed.hubId);
  });

  it('leaves the app installed in the account', async () => {
    const installed = await install(gateway);

    await fetch(refreshUrl(installed.refreshToken), { method: 'DELETE' });

    expect(await isAppInstalled(installed.hubId, installed.appId)).toBe(true);
  });

  it('keeps access tokens minted by the refresh grant before the delete valid', async () => {
    const installed = await install(gateway);
    const refreshed = await jsonOf<TokenJson>(
      await postForm(gateway.baseUrl, '/oauth/v1/token', {
        grant_type: 'refresh_token',
        client_id: installed.clientId,
        client_secret: installed.clientSecret,
        refresh_token: installed.refreshToken,
      }),
    );

    await fetch(refreshUrl(installed.refreshToken), { method: 'DELETE' });

    expect((await getInfo(refreshed.access_token)).status).toBe(200);
  });

  it('answers 404 for an unknown refresh token', async () => {
    const response = await fetch(refreshUrl('na1-unknown'), { method: 'DELETE' });

    expect(response.status).toBe(404);
    expect(await jsonOf(response)).toMatchObject({
      status: 'error',
      category: 'OBJECT_NOT_FOUND',
      context: { token: ['unknown'] },
    });
  });
});
