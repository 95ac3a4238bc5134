import { advanceClock, freezeClock } from '../../../shared/base/clock';
import { checkAppToken } from '../../../shared/http/app-token-auth';
import {
  authorizationCodeFor,
  bearer,
  jsonOf,
  postForm,
  provision,
  useTestGateway,
  type ErrorJson,
  type Installation,
  type TokenJson,
} from '../../support/harness';

/**
 * The client-credentials grant (RFC 6749 4.4) of the 2026-03 token endpoint and its v3 alias: an
 * app token of the app's own developer.webhooks_journal scopes, with no account, refused by every
 * account route, introspected, described and revoked like an access token.
 */
const gateway = useTestGateway();

const journalScopes = [
  'developer.webhooks_journal.read',
  'developer.webhooks_journal.subscriptions.read',
  'developer.webhooks_journal.subscriptions.write',
];

/** An app that lists three of the five journal scopes beside scopes an install grants. */
const journalApp = () => provision({ scopes: ['oauth', 'crm.objects.contacts.read', ...journalScopes] });

const credentials = (app: Pick<Installation, 'clientId' | 'clientSecret'>) => ({
  client_id: app.clientId,
  client_secret: app.clientSecret,
});

interface AppTokenJson {
  token_type: string;
  access_token: string;
  expires_in: number;
  token_use: string;
  scopes: string[];
}

async function appToken(app: Installation, scope = journalScopes.join(' '), base = '/oauth/2026-03'): Promise<string> {
  const response = await postForm(gateway.baseUrl, `${base}/token`, {
    grant_type: 'client_credentials',
    ...credentials(app),
    scope,
  });
  const body = await jsonOf<AppTokenJson>(response);
  if (response.status !== 200) throw new Error(`client_credentials failed: ${response.status} ${JSON.stringify(body)}`);
  return body.access_token;
}

const withoutCorrelation = ({ correlationId, ...rest }: ErrorJson) => {
  void correlationId;
  return rest;
};

describe.each(['/oauth/2026-03', '/oauth/v3'])('POST %s/token grant_type=client_credentials', (base) => {
  it('answers an app token: no refresh token, account or user, and no-store caching', async () => {
    const app = await journalApp();

    const response = await postForm(gateway.baseUrl, `${base}/token`, {
      grant_type: 'client_credentials',
      ...credentials(app),
      scope: 'developer.webhooks_journal.read developer.webhooks_journal.subscriptions.write',
    });

    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = await jsonOf<AppTokenJson>(response);
    expect(Object.keys(body)).toEqual(['token_type', 'access_token', 'expires_in', 'token_use', 'scopes']);
    expect(body).toEqual({
      token_type: 'bearer',
      access_token: expect.stringMatching(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{86}$/),
      expires_in: 1800,
      token_use: 'client_credentials',
      scopes: ['developer.webhooks_journal.read', 'developer.webhooks_journal.subscriptions.write'],
    });
  });

  it('takes the client credentials as HTTP Basic', async () => {
    const app = await journalApp();
    const basic = Buffer.from(`${app.clientId}:${app.clientSecret}`).toString('base64');

    const response = await postForm(
      gateway.baseUrl,
      `${base}/token`,
      { grant_type: 'client_credentials', scope: 'developer.webhooks_journal.read' },
      { authorization: `Basic ${basic}` },
    );

    expect(response.status).toBe(200);
    expect(await jsonOf<AppTokenJson>(response)).toMatchObject({ scopes: ['developer.webhooks_journal.read'] });
  });

  it.each([
    ['no scope', undefined, { field: ['scope'] }],
    ['an empty scope', '', { field: ['scope'] }],
    ['a scope an install grants, which the app has', 'developer.webhooks_journal.read oauth', { scope: ['oauth'] }],
    ['an unknown scope', 'developer.webhooks_journal.everything', { scope: ['developer.webhooks_journal.everything'] }],
    [
      'a journal scope the app lacks',
      'developer.webhooks_journal.read developer.webhooks_journal.snapshots.write',
      { scope: ['developer.webhooks_journal.snapshots.write'] },
    ],
  ])('answers 400 invalid_scope for %s', async (_case, scope, context) => {
    const app = await journalApp();

    const response = await postForm(gateway.baseUrl, `${base}/token`, {
      grant_type: 'client_credentials',
      ...credentials(app),
      ...(scope === undefined ? {} : { scope }),
    });

    expect(response.status).toBe(400);
    const body = await jsonOf(response);
    expect(body).toMatchObject({
      status: 'BAD_SCOPES',
      error: 'invalid_scope',
      category: 'VALIDATION_ERROR',
      context,
    });
    expect(body.error_description).toEqual(expect.any(String));
    expect(body.correlationId).toEqual(expect.any(String));
  });

  it('answers 401 invalid_client for a wrong secret and for an unknown client, before the scope is judged', async () => {
    const app = await journalApp();

    const wrongSecret = await postForm(gateway.baseUrl, `${base}/token`, {
      grant_type: 'client_credentials',
      client_id: app.clientId,
      client_secret: 'wrong',
      scope: 'oauth',
    });
    const unknownClient = await postForm(gateway.baseUrl, `${base}/token`, {
      grant_type: 'client_credentials',
      client_id: 'no-such-client',
      client_secret: app.clientSecret,
      scope: 'developer.webhooks_journal.read',
    });

    expect(wrongSecret.status).toBe(401);
    expect(await jsonOf(wrongSecret)).toMatchObject({ status: 'BAD_CLIENT_SECRET', error: 'invalid_client' });
    expect(unknownClient.status).toBe(401);
    expect(await jsonOf(unknownClient)).toMatchObject({ status: 'BAD_CLIENT_ID', error: 'invalid_client' });
  });

  it("issues a token that checkAppToken accepts for the app's scopes", async () => {
    const app = await journalApp();
    const token = await appToken(app, 'developer.webhooks_journal.read', base);

    const auth = await checkAppToken(bearer(token), ['developer.webhooks_journal.read']);

    expect(auth).toEqual({ appId: app.appId, scopes: ['developer.webhooks_journal.read'] });
  });
});

describe('POST /oauth/v1/token grant_type=client_credentials', () => {
  it('answers 400 unsupported_grant_type, as for any grant v1 does not take', async () => {
    const app = await journalApp();

    const response = await postForm(gateway.baseUrl, '/oauth/v1/token', {
      grant_type: 'client_credentials',
      ...credentials(app),
      scope: 'developer.webhooks_journal.read',
    });

    expect(response.status).toBe(400);
    expect(await jsonOf(response)).toMatchObject({
      status: 'UNSUPPORTED_GRANT_TYPE',
      error: 'unsupported_grant_type',
      context: { field: ['grant_type'] },
    });
  });
});

describe('an app token on an account route', () => {
  it.each([
    ['GET', '/crm/v3/objects/contacts'],
    ['GET', '/crm/v3/objects/companies'],
    ['DELETE', '/appinstalls/2026-03/external-install'],
  ])('%s %s answers the 401 an unknown token gets, body for body', async (method, path) => {
    const app = await journalApp();
    const token = await appToken(app);

    const refused = await fetch(`${gateway.baseUrl}${path}`, { method, headers: bearer(token) });
    const unknown = await fetch(`${gateway.baseUrl}${path}`, {
      method,
      headers: bearer(`${token.slice(0, -4)}AAAA`),
    });

    expect(refused.status).toBe(401);
    expect(unknown.status).toBe(401);
    const refusedBody = await jsonOf(refused);
    expect(withoutCorrelation(refusedBody)).toEqual(withoutCorrelation(await jsonOf(unknown)));
    expect(refusedBody).toMatchObject({
      status: 'error',
      message: 'The access token is invalid. Get a new one with the refresh token.',
      category: 'INVALID_AUTHENTICATION',
    });
  });

  it('answers that 401 after the token expired too, not the expired-token one', async () => {
    const app = await journalApp();
    const token = await appToken(app);
    advanceClock(1801 * 1000);

    const refused = await fetch(`${gateway.baseUrl}/crm/v3/objects/contacts`, { headers: bearer(token) });

    expect(refused.status).toBe(401);
    expect(await jsonOf(refused)).toMatchObject({ category: 'INVALID_AUTHENTICATION' });
  });
});

const introspect = (app: Installation, token: string, base = '/oauth/2026-03') =>
  postForm(gateway.baseUrl, `${base}/token/introspect`, { ...credentials(app), token });

describe.each(['/oauth/2026-03', '/oauth/v3'])('POST %s/token/introspect of an app token', (base) => {
  it('answers active with token_use client_credentials and no account or user', async () => {
    // expires_in counts down from 1800 by the clock the gateway reads, held here.
    freezeClock();
    const app = await journalApp();
    const token = await appToken(app);

    const response = await introspect(app, token, base);

    expect(response.status).toBe(200);
    expect(await jsonOf<Record<string, unknown>>(response)).toEqual({
      active: true,
      token_use: 'client_credentials',
      app_id: app.appId,
      client_id: app.clientId,
      expires_in: 1800,
      scopes: journalScopes,
      is_private_distribution: false,
      token,
      token_type: 'Bearer',
    });
  });

  it('answers {active:false} to another client, and for an expired token', async () => {
    const app = await journalApp();
    const other = await journalApp();
    const token = await appToken(app);

    const toOther = await introspect(other, token, base);
    advanceClock(1801 * 1000);
    const expired = await introspect(app, token, base);

    expect(await jsonOf<Record<string, unknown>>(toOther)).toEqual({ active: false });
    expect(await jsonOf<Record<string, unknown>>(expired)).toEqual({ active: false });
  });
});

describe.each(['/oauth/2026-03', '/oauth/v3'])('POST %s/token/revoke of an app token', (base) => {
  it('ends it: it introspects inactive, its metadata is 404 and checkAppToken refuses it', async () => {
    const app = await journalApp();
    const token = await appToken(app);
    const kept = await appToken(app);

    const revoked = await postForm(gateway.baseUrl, `${base}/token/revoke`, { ...credentials(app), token });

    expect(revoked.status).toBe(200);
    expect(await jsonOf<Record<string, unknown>>(revoked)).toEqual({});
    expect(await jsonOf<Record<string, unknown>>(await introspect(app, token))).toEqual({ active: false });
    const info = await fetch(`${gateway.baseUrl}/oauth/v1/access-tokens/${token}`);
    expect(info.status).toBe(404);
    await expect(checkAppToken(bearer(token), ['developer.webhooks_journal.read'])).rejects.toMatchObject({
      status: 401,
      category: 'INVALID_AUTHENTICATION',
    });
    // Each token is its own grant: the app's other token lives on.
    expect(await jsonOf<Record<string, unknown>>(await introspect(app, kept))).toMatchObject({ active: true });
  });

  it("leaves another client's app token alone", async () => {
    const app = await journalApp();
    const other = await journalApp();
    const token = await appToken(app);

    const response = await postForm(gateway.baseUrl, `${base}/token/revoke`, { ...credentials(other), token });

    expect(response.status).toBe(200);
    expect(await jsonOf<Record<string, unknown>>(await introspect(app, token))).toMatchObject({ active: true });
  });
});

describe('GET /oauth/v1/access-tokens/{token} of an app token', () => {
  it('answers its metadata with token_use client_credentials and no account or user', async () => {
    freezeClock();
    const app = await journalApp();
    const token = await appToken(app, 'developer.webhooks_journal.read');

    const response = await fetch(`${gateway.baseUrl}/oauth/v1/access-tokens/${token}`);

    expect(response.status).toBe(200);
    expect(await jsonOf<Record<string, unknown>>(response)).toEqual({
      token,
      scopes: ['developer.webhooks_journal.read'],
      app_id: app.appId,
      expires_in: 1800,
      token_type: 'access',
      token_use: 'client_credentials',
      is_private_distribution: false,
    });
  });
});

describe('an install of an app that has journal scopes', () => {
  it('gives account tokens without them, which checkAppToken refuses as unknown', async () => {
    const app = await journalApp();
    const code = await authorizationCodeFor(app, []);
    const exchanged = await postForm(gateway.baseUrl, '/oauth/2026-03/token', {
      grant_type: 'authorization_code',
      ...credentials(app),
      redirect_uri: app.redirectUri,
      code,
    });
    const tokens = await jsonOf<TokenJson>(exchanged);

    expect(exchanged.status).toBe(200);
    expect(tokens.scopes).toEqual(['oauth', 'crm.objects.contacts.read']);
    await expect(checkAppToken(bearer(tokens.access_token), ['developer.webhooks_journal.read'])).rejects.toMatchObject(
      {
        status: 401,
        message: 'The access token is invalid. Get a new one with the refresh token.',
      },
    );
  });
});
