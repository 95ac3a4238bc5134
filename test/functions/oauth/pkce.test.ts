import { createHash, randomBytes } from 'node:crypto';
import * as oidc from 'openid-client';
import {
  authorizationCodeFor,
  jsonOf,
  postForm,
  provision,
  useTestGateway,
  type Installation,
  type TokenJson,
} from '../../support/harness';
import { approveInstall } from '../../support/install-pages-client';

const gateway = useTestGateway();

const newVerifier = (): string => randomBytes(32).toString('base64url');
const challengeOf = (verifier: string): string => createHash('sha256').update(verifier).digest('base64url');

function exchange(path: string, installation: Installation, code: string, extra: Record<string, string> = {}) {
  return postForm(gateway.baseUrl, path, {
    grant_type: 'authorization_code',
    client_id: installation.clientId,
    client_secret: installation.clientSecret,
    redirect_uri: installation.redirectUri,
    code,
    ...extra,
  });
}

async function authorizeRedirect(installation: Installation, extra: Record<string, string>): Promise<URL> {
  const params = new URLSearchParams({
    client_id: installation.clientId,
    redirect_uri: installation.redirectUri,
    scope: installation.scopes.join(' '),
    state: 'pkce-state',
    ...extra,
  });
  const response = await fetch(`${gateway.baseUrl}/oauth/authorize?${params.toString()}`, { redirect: 'manual' });
  expect(response.status).toBe(302);
  return new URL(response.headers.get('location') ?? '');
}

describe('PKCE on /oauth/authorize', () => {
  it.each([
    ['plain', { code_challenge: challengeOf(newVerifier()), code_challenge_method: 'plain' }],
    ['an unknown method', { code_challenge: challengeOf(newVerifier()), code_challenge_method: 'S512' }],
    ['no method (plain by default)', { code_challenge: challengeOf(newVerifier()) }],
    ['a method without a challenge', { code_challenge_method: 'S256' }],
    ['a challenge that is not a SHA-256', { code_challenge: 'short', code_challenge_method: 'S256' }],
  ])('redirects with error=invalid_request and the state for %s', async (_name, extra) => {
    const installation = await provision();

    const location = await authorizeRedirect(installation, extra);

    expect(`${location.origin}${location.pathname}`).toBe(installation.redirectUri);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('state')).toBe('pkce-state');
    expect(location.searchParams.get('code')).toBeNull();
  });

  it('carries an S256 challenge through the login and consent forms onto the code', async () => {
    const installation = await provision();
    const verifier = newVerifier();
    const params = new URLSearchParams({
      client_id: installation.clientId,
      redirect_uri: installation.redirectUri,
      scope: installation.scopes.join(' '),
      state: 's',
      code_challenge: challengeOf(verifier),
      code_challenge_method: 'S256',
    });

    const callback = await approveInstall(gateway.baseUrl, `/oauth/authorize?${params.toString()}`, installation);
    const code = callback.searchParams.get('code') ?? '';

    expect((await exchange('/oauth/v1/token', installation, code)).status).toBe(400);
    expect((await exchange('/oauth/v1/token', installation, code, { code_verifier: verifier })).status).toBe(200);
  });
});

describe.each(['/oauth/v1/token', '/oauth/2026-03/token', '/oauth/v3/token'])('PKCE on POST %s', (path) => {
  async function pkceCode(installation: Installation, verifier: string): Promise<string> {
    return authorizationCodeFor(installation, installation.scopes, {
      code_challenge: challengeOf(verifier),
      code_challenge_method: 'S256',
    });
  }

  it('exchanges a code issued with a challenge for the matching verifier', async () => {
    const installation = await provision();
    const verifier = newVerifier();

    const response = await exchange(path, installation, await pkceCode(installation, verifier), {
      code_verifier: verifier,
    });

    expect(response.status).toBe(200);
    expect((await jsonOf<TokenJson>(response)).access_token).toEqual(expect.any(String));
  });

  it.each([
    ['missing', undefined],
    ['wrong', newVerifier()],
    ['too short (42 characters)', 'a'.repeat(42)],
    ['too long (129 characters)', 'a'.repeat(129)],
    ['with a character outside the unreserved set', `${'a'.repeat(50)}+`],
  ])('answers 400 invalid_grant for a %s verifier, and the code stays usable', async (_name, verifier) => {
    const installation = await provision();
    const good = newVerifier();
    const code = await pkceCode(installation, good);

    const response = await exchange(
      path,
      installation,
      code,
      verifier === undefined ? {} : { code_verifier: verifier },
    );

    expect(response.status).toBe(400);
    const body = await jsonOf(response);
    expect(body).toMatchObject({ error: 'invalid_grant', status: 'BAD_CODE_VERIFIER', category: 'VALIDATION_ERROR' });
    expect(body.error_description).toEqual(expect.any(String));
    expect(body.correlationId).toEqual(expect.any(String));
    expect((await exchange(path, installation, code, { code_verifier: good })).status).toBe(200);
  });

  it('answers 400 invalid_grant for a verifier sent with a code issued without a challenge (downgrade)', async () => {
    const installation = await provision();
    const code = await authorizationCodeFor(installation);

    const response = await exchange(path, installation, code, { code_verifier: newVerifier() });

    expect(response.status).toBe(400);
    expect(await jsonOf(response)).toMatchObject({ error: 'invalid_grant', status: 'BAD_CODE_VERIFIER' });
  });
});

describe('a standard OAuth client library doing PKCE itself (openid-client)', () => {
  it('completes authorize and the 2026-03 token exchange', async () => {
    const installation = await provision();
    const server: oidc.ServerMetadata = {
      issuer: gateway.baseUrl,
      authorization_endpoint: `${gateway.baseUrl}/oauth/authorize`,
      token_endpoint: `${gateway.baseUrl}/oauth/2026-03/token`,
    };
    const config = new oidc.Configuration(server, installation.clientId, installation.clientSecret);
    oidc.allowInsecureRequests(config);
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const authorizeUrl = oidc.buildAuthorizationUrl(config, {
      redirect_uri: installation.redirectUri,
      scope: installation.scopes.join(' '),
      state,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });

    const callback = await approveInstall(gateway.baseUrl, authorizeUrl.href, installation);
    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });

    expect(tokens.token_type).toBe('bearer');
    expect(tokens.expires_in).toBe(1800);
    expect(tokens.refresh_token).toMatch(/^na1-/);
    const companies = await fetch(`${gateway.baseUrl}/crm/v3/objects/companies`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(companies.status).toBe(200);
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token ?? '');
    expect(refreshed.access_token).not.toBe(tokens.access_token);
  });
});
