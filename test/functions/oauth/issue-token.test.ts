import { advanceClock } from '../../../shared/base/clock';
import {
  authorizationCodeFor,
  bearer,
  install,
  jsonOf,
  postForm,
  provision,
  signTestAccessToken,
  useTestGateway,
  type TokenJson,
} from '../../support/harness';

const gateway = useTestGateway();

function exchange(
  installation: Awaited<ReturnType<typeof provision>>,
  code: string,
  overrides: Record<string, string> = {},
) {
  return postForm(gateway.baseUrl, '/oauth/v1/token', {
    grant_type: 'authorization_code',
    client_id: installation.clientId,
    client_secret: installation.clientSecret,
    redirect_uri: installation.redirectUri,
    code,
    ...overrides,
  });
}

describe('POST /oauth/v1/token, authorization_code', () => {
  it('returns bearer tokens with expires_in 1800 and no-store caching', async () => {
    const installation = await provision();
    const code = await authorizationCodeFor(installation);

    const response = await exchange(installation, code);

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json;charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = await jsonOf<TokenJson>(response);
    expect(body).toMatchObject({
      token_type: 'bearer',
      expires_in: 1800,
      hub_id: installation.hubId,
      user_id: installation.userId,
      token_use: 'access_token',
    });
    expect(body.scopes).toEqual(installation.scopes);
    expect(typeof body.access_token).toBe('string');
    expect(body.access_token.length).toBeLessThan(512);
    expect(body.refresh_token).toMatch(/^na1-[A-Za-z0-9_-]{43}$/);
  });

  it('accepts client credentials as HTTP Basic', async () => {
    const installation = await provision();
    const code = await authorizationCodeFor(installation);
    const basic = Buffer.from(
      `${encodeURIComponent(installation.clientId)}:${encodeURIComponent(installation.clientSecret)}`,
    ).toString('base64');

    const response = await postForm(
      gateway.baseUrl,
      '/oauth/v1/token',
      { grant_type: 'authorization_code', redirect_uri: installation.redirectUri, code },
      { authorization: `Basic ${basic}` },
    );

    expect(response.status).toBe(200);
  });

  it('gives exactly one 200 for 10 parallel exchanges of one code', async () => {
    const installation = await provision();
    const code = await authorizationCodeFor(installation);

    const responses = await Promise.all(Array.from({ length: 10 }, () => exchange(installation, code)));

    const statuses = responses.map((response) => response.status).sort();
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 400)).toHaveLength(9);
  });

  it('revokes the refresh token issued from a code when the code is replayed', async () => {
    const installation = await provision();
    const code = await authorizationCodeFor(installation);
    const first = await jsonOf<TokenJson>(await exchange(installation, code));

    const replay = await exchange(installation, code);
    const refresh = await postForm(gateway.baseUrl, '/oauth/v1/token', {
      grant_type: 'refresh_token',
      client_id: installation.clientId,
      client_secret: installation.clientSecret,
      refresh_token: first.refresh_token,
    });

    expect(replay.status).toBe(400);
    expect(await replay.json()).toMatchObject({ status: 'BAD_AUTH_CODE', error: 'invalid_grant' });
    expect(refresh.status).toBe(400);
    expect(await refresh.json()).toMatchObject({ status: 'BAD_REFRESH_TOKEN', error: 'invalid_grant' });
  });

  it("makes the access token issued from a replayed code introspect inactive, its metadata answer as an unknown token's, and API calls fail", async () => {
    const installation = await provision();
    const code = await authorizationCodeFor(installation);
    const first = await jsonOf<TokenJson>(await exchange(installation, code));
    const unknownGrant = signTestAccessToken({
      appId: installation.appId,
      hubId: installation.hubId,
      scopes: ['oauth'],
    });
    expect(
      (await fetch(`${gateway.baseUrl}/crm/v3/objects/companies`, { headers: bearer(first.access_token) })).status,
    ).toBe(200);

    expect((await exchange(installation, code)).status).toBe(400);

    const introspection = await postForm(gateway.baseUrl, '/oauth/2026-03/token/introspect', {
      token: first.access_token,
      client_id: installation.clientId,
      client_secret: installation.clientSecret,
    });
    expect(await introspection.json()).toEqual({ active: false });
    const metadataOf = async (token: string) => {
      const response = await fetch(`${gateway.baseUrl}/oauth/v1/access-tokens/${token}`);
      const { correlationId, ...body } = await jsonOf(response);
      return { httpStatus: response.status, correlationId: typeof correlationId, ...body };
    };
    const metadata = await metadataOf(first.access_token);
    expect(metadata).toEqual(await metadataOf(unknownGrant));
    expect(metadata).toMatchObject({ httpStatus: 404, category: 'OBJECT_NOT_FOUND' });
    const call = await fetch(`${gateway.baseUrl}/crm/v3/objects/companies`, { headers: bearer(first.access_token) });
    expect(call.status).toBe(401);
    expect(await jsonOf(call)).toMatchObject({
      category: 'INVALID_AUTHENTICATION',
      message: expect.stringContaining('revoked'),
    });
  });

  it("keeps the app's refresh token when another client replays the app's used code, and answers as for a bad code", async () => {
    const owner = await provision();
    const other = await provision();
    const code = await authorizationCodeFor(owner);
    const first = await jsonOf<TokenJson>(await exchange(owner, code));

    const replay = await exchange(other, code, { redirect_uri: other.redirectUri });
    const refresh = await postForm(gateway.baseUrl, '/oauth/v1/token', {
      grant_type: 'refresh_token',
      client_id: owner.clientId,
      client_secret: owner.clientSecret,
      refresh_token: first.refresh_token,
    });

    expect(replay.status).toBe(400);
    expect(await replay.json()).toMatchObject({
      status: 'BAD_AUTH_CODE',
      error: 'invalid_grant',
      message: 'missing or unknown auth code',
    });
    expect(refresh.status).toBe(200);
    expect(
      (await fetch(`${gateway.baseUrl}/crm/v3/objects/companies`, { headers: bearer(first.access_token) })).status,
    ).toBe(200);
  });

  it('rejects a code older than 10 minutes with EXPIRED_AUTH_CODE', async () => {
    const installation = await provision();
    const code = await authorizationCodeFor(installation);
    advanceClock(601_000);

    const response = await exchange(installation, code);

    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      status: 'EXPIRED_AUTH_CODE',
      error: 'invalid_grant',
      category: 'VALIDATION_ERROR',
    });
  });

  it('rejects a redirect_uri other than the one the code was issued for', async () => {
    const installation = await provision({ redirectUris: ['https://a.example.com/cb', 'https://b.example.com/cb'] });
    const code = await authorizationCodeFor(installation);

    const response = await exchange(installation, code, { redirect_uri: 'https://b.example.com/cb' });

    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ status: 'MISMATCH_REDIRECT_URI_AUTH_CODE', error: 'invalid_grant' });
  });

  it('rejects a code issued to another client', async () => {
    const owner = await provision();
    const other = await provision();
    const code = await authorizationCodeFor(owner);

    const response = await exchange(other, code, { redirect_uri: other.redirectUri });

    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ status: 'BAD_AUTH_CODE', error: 'invalid_grant' });
  });

  it('answers 401 invalid_client for a wrong client secret', async () => {
    const installation = await provision();
    const code = await authorizationCodeFor(installation);

    const response = await exchange(installation, code, { client_secret: 'wrong' });

    expect(response.status).toBe(401);
    const body = await jsonOf(response);
    expect(body).toMatchObject({
      status: 'BAD_CLIENT_SECRET',
      error: 'invalid_client',
      category: 'INVALID_AUTHENTICATION',
    });
    expect(body.correlationId).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.error_description).toBe(body.message);
  });

  it('answers 401 BAD_CLIENT_ID for an unknown client', async () => {
    const response = await postForm(gateway.baseUrl, '/oauth/v1/token', {
      grant_type: 'authorization_code',
      client_id: 'nope',
      client_secret: 'x',
      redirect_uri: 'https://x.example',
      code: 'na1-x',
    });

    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ status: 'BAD_CLIENT_ID', error: 'invalid_client' });
  });

  it('answers unsupported_grant_type for client_credentials', async () => {
    const response = await postForm(gateway.baseUrl, '/oauth/v1/token', {
      grant_type: 'client_credentials',
      client_id: 'a',
      client_secret: 'b',
    });

    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'unsupported_grant_type', status: 'UNSUPPORTED_GRANT_TYPE' });
  });

  it.each(['client_secret', 'client_id', 'code', 'refresh_token'])(
    'refuses %s in the query string with 400 invalid_request, even with a valid body',
    async (field) => {
      const installation = await provision();
      const code = await authorizationCodeFor(installation);
      const fields: Record<string, string> = {
        grant_type: 'authorization_code',
        client_id: installation.clientId,
        client_secret: installation.clientSecret,
        redirect_uri: installation.redirectUri,
        code,
      };
      const query = new URLSearchParams({ [field]: fields[field] ?? 'na1-refresh' }).toString();

      const response = await postForm(gateway.baseUrl, `/oauth/v1/token?${query}`, fields);

      expect(response.status).toBe(400);
      const body = await jsonOf(response);
      expect(body).toMatchObject({
        status: 'BAD_REQUEST',
        error: 'invalid_request',
        category: 'VALIDATION_ERROR',
        context: { query: [field] },
      });
      expect(body.error_description).toBe(body.message);
      expect(body.correlationId).toMatch(/^[0-9a-f-]{36}$/);
    },
  );

  it('refuses a refresh grant whose secret and refresh token are only in the query string', async () => {
    const installation = await install(gateway);
    const query = new URLSearchParams({
      client_secret: installation.clientSecret,
      refresh_token: installation.refreshToken,
    }).toString();

    const response = await postForm(gateway.baseUrl, `/oauth/v1/token?${query}`, {
      grant_type: 'refresh_token',
      client_id: installation.clientId,
    });

    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: 'invalid_request',
      context: { query: ['client_secret', 'refresh_token'] },
    });
  });

  it('answers invalid_request when grant_type is missing', async () => {
    const response = await postForm(gateway.baseUrl, '/oauth/v1/token', {});

    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_request', context: { field: ['grant_type'] } });
  });
});

describe('POST /oauth/v1/token, refresh_token', () => {
  it('returns a new access token and the same refresh token', async () => {
    const installed = await install(gateway);

    const response = await postForm(gateway.baseUrl, '/oauth/v1/token', {
      grant_type: 'refresh_token',
      client_id: installed.clientId,
      client_secret: installed.clientSecret,
      refresh_token: installed.refreshToken,
    });

    expect(response.status).toBe(200);
    const body = await jsonOf<TokenJson>(response);
    expect(body).toMatchObject({ token_type: 'bearer', expires_in: 1800, refresh_token: installed.refreshToken });
    expect(body.access_token).not.toBe(installed.accessToken);
  });

  it('rejects a refresh token presented by another client', async () => {
    const installed = await install(gateway);
    const other = await provision();

    const response = await postForm(gateway.baseUrl, '/oauth/v1/token', {
      grant_type: 'refresh_token',
      client_id: other.clientId,
      client_secret: other.clientSecret,
      refresh_token: installed.refreshToken,
    });

    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ status: 'BAD_REFRESH_TOKEN', error: 'invalid_grant' });
  });
});

describe('POST /oauth/v1/token, a request it cannot read', () => {
  const tokenUrl = () => `${gateway.baseUrl}/oauth/v1/token`;

  it('answers a JSON body with 400 invalid_request and the usual error fields, and issues nothing', async () => {
    const installation = await provision();
    const code = await authorizationCodeFor(installation);
    const fields = {
      grant_type: 'authorization_code',
      client_id: installation.clientId,
      client_secret: installation.clientSecret,
      redirect_uri: installation.redirectUri,
      code,
    };

    const response = await fetch(tokenUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(fields),
    });

    expect(response.status).toBe(400);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = (await jsonOf(response)) as unknown as Record<string, unknown>;
    expect(body).toMatchObject({
      status: 'error',
      error: 'invalid_request',
      category: 'VALIDATION_ERROR',
      context: { 'content-type': ['unsupported'] },
    });
    expect(body.error_description).toBe(body.message);
    expect(body.correlationId).toBe(response.headers.get('x-hubspot-correlation-id'));
    // The code was not spent: the same code still exchanges as a form.
    expect((await exchange(installation, code)).status).toBe(200);
  });

  it('answers a request without a Content-Type with 400 invalid_request', async () => {
    const response = await fetch(tokenUrl(), {
      method: 'POST',
      body: new Uint8Array(Buffer.from('grant_type=refresh_token')),
    });

    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      status: 'error',
      error: 'invalid_request',
      context: { 'content-type': ['unsupported'] },
    });
  });

  it('answers a field over its limit with 400 invalid_request naming the field', async () => {
    const response = await postForm(gateway.baseUrl, '/oauth/v1/token', {
      grant_type: 'authorization_code',
      code: 'x'.repeat(201),
    });

    expect(response.status).toBe(400);
    const body = await jsonOf(response);
    expect(body).toMatchObject({
      error: 'invalid_request',
      category: 'VALIDATION_ERROR',
      context: { field: ['body.code'] },
    });
  });
});
