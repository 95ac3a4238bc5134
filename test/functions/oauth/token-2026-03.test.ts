import { advanceClock } from '../../../shared/base/clock';
import {
  authorizationCodeFor,
  bearer,
  install,
  jsonOf,
  postForm,
  provision,
  useTestGateway,
  type InstalledTokens,
  type Installation,
  type TokenJson,
} from '../../support/harness';

const gateway = useTestGateway();

const credentials = (installation: Installation) => ({
  client_id: installation.clientId,
  client_secret: installation.clientSecret,
});

describe.each(['/oauth/2026-03', '/oauth/v3'])('POST %s/token', (base) => {
  it('exchanges a code for the 2026-03 token response with no-store caching', async () => {
    const installation = await provision();
    const code = await authorizationCodeFor(installation);

    const response = await postForm(gateway.baseUrl, `${base}/token`, {
      grant_type: 'authorization_code',
      ...credentials(installation),
      redirect_uri: installation.redirectUri,
      code,
    });

    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = await jsonOf<TokenJson>(response);
    expect(Object.keys(body)).toEqual([
      'token_type',
      'access_token',
      'refresh_token',
      'expires_in',
      'token_use',
      'hub_id',
      'scopes',
      'user_id',
    ]);
    expect(body).toMatchObject({
      token_type: 'bearer',
      expires_in: 1800,
      token_use: 'access_token',
      hub_id: installation.hubId,
      user_id: installation.userId,
      scopes: installation.scopes,
    });
  });

  it.each([['client_secret'], ['client_id'], ['code'], ['refresh_token']])(
    'answers 400 invalid_request for %s in the query string',
    async (name) => {
      const installation = await provision();
      const code = await authorizationCodeFor(installation);
      const fields = {
        grant_type: 'authorization_code',
        ...credentials(installation),
        redirect_uri: installation.redirectUri,
        code,
      } as Record<string, string>;
      const query = new URLSearchParams({ [name]: fields[name] ?? 'x' });

      const response = await postForm(gateway.baseUrl, `${base}/token?${query.toString()}`, fields);

      expect(response.status).toBe(400);
      const body = await jsonOf(response);
      expect(body).toMatchObject({
        error: 'invalid_request',
        status: 'BAD_REQUEST',
        category: 'VALIDATION_ERROR',
        context: { query: [name] },
      });
      expect(body.error_description).toContain(name);
      expect(body.correlationId).toEqual(expect.any(String));
    },
  );

  it('refreshes with a narrower scope, whose access token lacks the dropped scopes', async () => {
    const installed = await install(gateway);

    const response = await postForm(gateway.baseUrl, `${base}/token`, {
      grant_type: 'refresh_token',
      ...credentials(installed),
      refresh_token: installed.refreshToken,
      scope: 'oauth crm.objects.companies.read',
    });

    expect(response.status).toBe(200);
    const body = await jsonOf<TokenJson>(response);
    expect(body.scopes).toEqual(['oauth', 'crm.objects.companies.read']);
    expect(body.refresh_token).toBe(installed.refreshToken);
    const read = await fetch(`${gateway.baseUrl}/crm/v3/objects/companies`, { headers: bearer(body.access_token) });
    const write = await fetch(`${gateway.baseUrl}/crm/v3/objects/companies`, {
      method: 'POST',
      headers: { ...bearer(body.access_token), 'content-type': 'application/json' },
      body: JSON.stringify({ properties: { name: 'x' } }),
    });
    expect(read.status).toBe(200);
    expect(write.status).toBe(403);
  });

  it('answers 400 invalid_scope for a refresh asking for a scope the grant does not hold', async () => {
    const installed = await install(gateway);

    const response = await postForm(gateway.baseUrl, `${base}/token`, {
      grant_type: 'refresh_token',
      ...credentials(installed),
      refresh_token: installed.refreshToken,
      scope: 'oauth crm.schemas.contacts.write',
    });

    expect(response.status).toBe(400);
    expect(await jsonOf(response)).toMatchObject({
      error: 'invalid_scope',
      status: 'BAD_SCOPES',
      context: { scope: ['crm.schemas.contacts.write'] },
    });
  });

  it('answers errors as v1 does: 401 invalid_client with HubSpot status, category and correlationId', async () => {
    const installed = await install(gateway);

    const response = await postForm(gateway.baseUrl, `${base}/token`, {
      grant_type: 'refresh_token',
      client_id: installed.clientId,
      client_secret: 'wrong',
      refresh_token: installed.refreshToken,
    });

    expect(response.status).toBe(401);
    expect(await jsonOf(response)).toMatchObject({
      status: 'BAD_CLIENT_SECRET',
      error: 'invalid_client',
      error_description: 'missing or invalid client secret',
      message: 'missing or invalid client secret',
      category: 'INVALID_AUTHENTICATION',
      correlationId: expect.any(String),
    });
  });
});

async function introspect(base: string, installation: Installation, token: string, extra: Record<string, string> = {}) {
  return postForm(gateway.baseUrl, `${base}/token/introspect`, { token, ...credentials(installation), ...extra });
}

async function revoke(base: string, installation: Installation, token: string) {
  return postForm(gateway.baseUrl, `${base}/token/revoke`, { token, ...credentials(installation) });
}

describe.each(['/oauth/2026-03', '/oauth/v3'])('POST %s/token/introspect', (base) => {
  let installed: InstalledTokens;
  beforeAll(async () => {
    installed = await install(gateway);
  });

  it('describes an active access token', async () => {
    const response = await introspect(base, installed, installed.accessToken, { token_type_hint: 'access_token' });

    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = await jsonOf<Record<string, unknown>>(response);
    expect(body).toMatchObject({
      active: true,
      token_use: 'access_token',
      app_id: installed.appId,
      client_id: installed.clientId,
      hub_id: installed.hubId,
      user_id: installed.userId,
      scopes: installed.scopes,
      is_private_distribution: false,
      token: installed.accessToken,
      token_type: 'Bearer',
      signed_access_token: expect.objectContaining({
        appId: installed.appId,
        hubId: installed.hubId,
        audience: installed.clientId,
      }),
    });
    expect(body.expires_in).toBeGreaterThan(1790);
  });

  it('describes an active refresh token', async () => {
    const response = await introspect(base, installed, installed.refreshToken);

    expect(response.status).toBe(200);
    expect(await jsonOf<Record<string, unknown>>(response)).toMatchObject({
      active: true,
      token_use: 'refresh_token',
      app_id: installed.appId,
      client_id: installed.clientId,
      hub_id: installed.hubId,
      user_id: installed.userId,
      scopes: installed.scopes,
      token: installed.refreshToken,
      token_type: 'refresh',
    });
  });

  it("answers 200 {active:false} for an unknown token, an expired one and another client's", async () => {
    const other = await install(gateway);
    const expiring = await install(gateway);

    const unknown = await introspect(base, installed, 'na1-unknown-token');
    const forged = await introspect(base, installed, `${installed.accessToken.slice(0, -4)}AAAA`);
    const othersAccess = await introspect(base, installed, other.accessToken);
    const othersRefresh = await introspect(base, installed, other.refreshToken);
    advanceClock(1801 * 1000);
    const expired = await introspect(base, expiring, expiring.accessToken);

    for (const response of [unknown, forged, othersAccess, othersRefresh, expired]) {
      expect(response.status).toBe(200);
      expect(await jsonOf<Record<string, unknown>>(response)).toEqual({ active: false });
    }
  });

  it('answers 401 invalid_client for bad client credentials', async () => {
    const response = await postForm(gateway.baseUrl, `${base}/token/introspect`, {
      token: installed.accessToken,
      client_id: installed.clientId,
      client_secret: 'nope',
    });

    expect(response.status).toBe(401);
    expect(await jsonOf(response)).toMatchObject({ error: 'invalid_client', status: 'BAD_CLIENT_SECRET' });
  });

  it('answers 400 invalid_request for a token in the query string', async () => {
    const response = await postForm(
      gateway.baseUrl,
      `${base}/token/introspect?token=${encodeURIComponent(installed.refreshToken)}`,
      credentials(installed),
    );

    expect(response.status).toBe(400);
    expect(await jsonOf(response)).toMatchObject({ error: 'invalid_request', context: { query: ['token'] } });
  });
});

describe.each(['/oauth/2026-03', '/oauth/v3'])('POST %s/token/revoke', (base) => {
  it('revokes a refresh token: the refresh grant fails and both tokens introspect inactive; API calls live on until expiry', async () => {
    const installed = await install(gateway);

    const response = await revoke(base, installed, installed.refreshToken);

    expect(response.status).toBe(200);
    const refresh = await postForm(gateway.baseUrl, `${base}/token`, {
      grant_type: 'refresh_token',
      ...credentials(installed),
      refresh_token: installed.refreshToken,
    });
    expect(refresh.status).toBe(400);
    expect(await jsonOf(refresh)).toMatchObject({ error: 'invalid_grant', status: 'BAD_REFRESH_TOKEN' });
    expect(await jsonOf<Record<string, unknown>>(await introspect(base, installed, installed.refreshToken))).toEqual({
      active: false,
    });
    expect(await jsonOf<Record<string, unknown>>(await introspect(base, installed, installed.accessToken))).toEqual({
      active: false,
    });
    expect((await fetch(`${gateway.baseUrl}/oauth/v1/access-tokens/${installed.accessToken}`)).status).toBe(404);
    // Documented: API auth reads nothing, so the grant's access tokens work until they expire.
    expect(
      (await fetch(`${gateway.baseUrl}/crm/v3/objects/companies`, { headers: bearer(installed.accessToken) })).status,
    ).toBe(200);
  });

  it('revokes the whole grant when given an access token', async () => {
    const installed = await install(gateway);

    expect((await revoke(base, installed, installed.accessToken)).status).toBe(200);

    const refresh = await postForm(gateway.baseUrl, `${base}/token`, {
      grant_type: 'refresh_token',
      ...credentials(installed),
      refresh_token: installed.refreshToken,
    });
    expect(refresh.status).toBe(400);
    expect(await jsonOf<Record<string, unknown>>(await introspect(base, installed, installed.accessToken))).toEqual({
      active: false,
    });
  });

  it("answers 200 for an unknown token and for another client's token, which stays active", async () => {
    const installed = await install(gateway);
    const other = await install(gateway);

    const unknown = await revoke(base, installed, 'na1-never-issued');
    const othersToken = await revoke(base, installed, other.refreshToken);

    expect(unknown.status).toBe(200);
    expect(othersToken.status).toBe(200);
    expect(await jsonOf<Record<string, unknown>>(await introspect(base, other, other.refreshToken))).toMatchObject({
      active: true,
    });
  });

  it('answers 401 invalid_client for bad client credentials and revokes nothing', async () => {
    const installed = await install(gateway);

    const response = await postForm(gateway.baseUrl, `${base}/token/revoke`, {
      token: installed.refreshToken,
      client_id: installed.clientId,
      client_secret: 'nope',
    });

    expect(response.status).toBe(401);
    expect(await jsonOf(response)).toMatchObject({ error: 'invalid_client' });
    expect(
      await jsonOf<Record<string, unknown>>(await introspect(base, installed, installed.refreshToken)),
    ).toMatchObject({ active: true });
  });
});
