import {
  authorizationCodeFor,
  install,
  jsonOf,
  postForm,
  provision,
  useTestGateway,
  type Installation,
} from '../../support/harness';

const gateway = useTestGateway();

/** HTTP Basic client credentials as RFC 6749 2.3.1 spells them (form-urlencoded id and secret). */
const basic = (clientId: string, clientSecret: string) => ({
  authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64')}`,
});

/** The two ways to send two different secrets: the right one in the header, or the right one in the body. */
const mixes = [
  [
    'the right secret as HTTP Basic and another in the body',
    (installation: Installation) => ({ header: installation.clientSecret, body: 'not-the-secret' }),
  ],
  [
    'another secret as HTTP Basic and the right one in the body',
    (installation: Installation) => ({ header: 'not-the-secret', body: installation.clientSecret }),
  ],
] as const;

async function introspect(installation: Installation, token: string): Promise<Record<string, unknown>> {
  const response = await postForm(gateway.baseUrl, '/oauth/2026-03/token/introspect', {
    token,
    client_id: installation.clientId,
    client_secret: installation.clientSecret,
  });
  return jsonOf<Record<string, unknown>>(response);
}

// RFC 6749 2.3: a client MUST NOT use more than one authentication method in a request.
describe.each(mixes)('a client sending %s', (_label, secretsOf) => {
  it.each(['/oauth/v1/token', '/oauth/2026-03/token', '/oauth/v3/token'])(
    'gets 400 invalid_request from %s, and the code stays unused',
    async (path) => {
      const installation = await provision();
      const code = await authorizationCodeFor(installation);
      const secrets = secretsOf(installation);

      const response = await postForm(
        gateway.baseUrl,
        path,
        { grant_type: 'authorization_code', client_secret: secrets.body, redirect_uri: installation.redirectUri, code },
        basic(installation.clientId, secrets.header),
      );

      expect(response.status).toBe(400);
      expect(await jsonOf(response)).toMatchObject({
        error: 'invalid_request',
        status: 'BAD_CLIENT_SECRET',
        category: 'VALIDATION_ERROR',
        context: { field: ['client_secret'] },
      });
      const honest = await postForm(gateway.baseUrl, path, {
        grant_type: 'authorization_code',
        client_id: installation.clientId,
        client_secret: installation.clientSecret,
        redirect_uri: installation.redirectUri,
        code,
      });
      expect(honest.status).toBe(200);
    },
  );

  it.each(['/oauth/2026-03', '/oauth/v3'])('gets 400 invalid_request from %s/token/introspect', async (base) => {
    const installed = await install(gateway);
    const secrets = secretsOf(installed);

    const response = await postForm(
      gateway.baseUrl,
      `${base}/token/introspect`,
      { token: installed.refreshToken, client_secret: secrets.body },
      basic(installed.clientId, secrets.header),
    );

    expect(response.status).toBe(400);
    const body = await jsonOf(response);
    expect(body).toMatchObject({ error: 'invalid_request', context: { field: ['client_secret'] } });
    expect(body).not.toHaveProperty('active');
  });

  it.each(['/oauth/2026-03', '/oauth/v3'])(
    'gets 400 invalid_request from %s/token/revoke, which revokes nothing',
    async (base) => {
      const installed = await install(gateway);
      const secrets = secretsOf(installed);

      const response = await postForm(
        gateway.baseUrl,
        `${base}/token/revoke`,
        { token: installed.refreshToken, client_secret: secrets.body },
        basic(installed.clientId, secrets.header),
      );

      expect(response.status).toBe(400);
      expect(await jsonOf(response)).toMatchObject({ error: 'invalid_request', context: { field: ['client_secret'] } });
      expect(await introspect(installed, installed.refreshToken)).toMatchObject({ active: true });
    },
  );
});

describe('a client sending HTTP Basic credentials', () => {
  it('may repeat the same client_id and client_secret in the body (one credential, sent twice)', async () => {
    const installation = await provision();
    const code = await authorizationCodeFor(installation);

    const response = await postForm(
      gateway.baseUrl,
      '/oauth/2026-03/token',
      {
        grant_type: 'authorization_code',
        client_id: installation.clientId,
        client_secret: installation.clientSecret,
        redirect_uri: installation.redirectUri,
        code,
      },
      basic(installation.clientId, installation.clientSecret),
    );

    expect(response.status).toBe(200);
  });
});
