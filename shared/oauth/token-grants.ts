import { randomBytes } from 'node:crypto';
import { findAccount, type Account } from '../db/accounts';
import { findAppByClientId, type App } from '../db/apps';
import { rateLimitsOf } from '../limits/rate-limits';
import { findInstallState, installGenerationWrite, revokeInstallGrant } from '../db/install-states';
import {
  deleteRefreshToken,
  findAuthCode,
  insertAppGrant,
  findRefreshTokenWithApp,
  findUsedCode,
  insertAuthCode,
  redeemAuthCode,
  revokeGrant,
  type AuthCode,
} from '../db/oauth-grants';
import { nowSeconds } from '../base/clock';
import { OAuthError, ServiceUnavailableError } from '../base/errors';
import { accessTokenLifetimeSeconds, signAccessToken } from './access-token';
import { forgetInstallState, newInstallGeneration, standingIn } from './install-status';
import { loadSigningKey } from './key-material';
import { requireMatchingVerifier } from './pkce';
import { isClientCredentialsScope, isKnownScope, parseScopeList, type Scope } from './scopes';
import { generateOpaqueToken, hashSecret, secretMatchesHash } from './secrets';

export interface TokenRequest {
  grant_type?: string;
  client_id?: string;
  client_secret?: string;
  redirect_uri?: string;
  code?: string;
  refresh_token?: string;
  code_verifier?: string;
  scope?: string;
}

/** What differs between the v1 token endpoint and 2026-03 (and its v3 alias). */
export interface TokenEndpointOptions {
  /** 2026-03: a refresh may ask for fewer scopes than the grant holds (RFC 6749 6). */
  allowsScopeNarrowing: boolean;
  /** 2026-03: grant_type=client_credentials gives the app a token of its own scopes (RFC 6749 4.4). */
  allowsClientCredentials: boolean;
}

/** v1: authorization_code and refresh_token only, a refresh keeps the grant's scopes. */
const v1Options: TokenEndpointOptions = { allowsScopeNarrowing: false, allowsClientCredentials: false };

export interface TokenResponse {
  token_type: 'bearer';
  refresh_token: string;
  access_token: string;
  expires_in: number;
  hub_id: number;
  user_id: number;
  scopes: string[];
  token_use: 'access_token';
}

/** The client-credentials answer: an app token, with no refresh token, account or user. */
export interface ClientCredentialsTokenResponse {
  token_type: 'bearer';
  access_token: string;
  expires_in: number;
  token_use: 'client_credentials';
  scopes: string[];
}

interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

/**
 * RFC 6749 2.3.1: credentials in the body or as HTTP Basic (form-urlencoded id and secret). A body field
 * that repeats the header's value is tolerated; one that differs is 400 invalid_request.
 */
export function clientCredentialsOf(request: TokenRequest, authorization: string | undefined): ClientCredentials {
  let fromHeader: ClientCredentials | undefined;
  const basic = authorization === undefined ? null : /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization);
  if (basic?.[1]) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const separator = decoded.indexOf(':');
    try {
      if (separator > 0) {
        fromHeader = {
          clientId: decodeURIComponent(decoded.slice(0, separator).replaceAll('+', ' ')),
          clientSecret: decodeURIComponent(decoded.slice(separator + 1).replaceAll('+', ' ')),
        };
      }
    } catch {
      fromHeader = undefined;
    }
    if (!fromHeader)
      throw new OAuthError('BAD_CLIENT_ID', 'invalid_client', 'The Basic authorization header is malformed.');
  }
  if (fromHeader && request.client_id !== undefined && request.client_id !== fromHeader.clientId) {
    throw new OAuthError(
      'BAD_CLIENT_ID',
      'invalid_request',
      'client_id in the body differs from the Authorization header.',
    );
  }
  // RFC 6749 2.3: one authentication method per request. A second secret that differs would leave it to
  // chance which one is checked (the header's, before this check), so it is refused before either is.
  if (fromHeader && request.client_secret !== undefined && request.client_secret !== fromHeader.clientSecret) {
    throw new OAuthError(
      'BAD_CLIENT_SECRET',
      'invalid_request',
      'client_secret in the body differs from the Authorization header: use one client authentication method.',
      { context: { field: ['client_secret'] } },
    );
  }
  const clientId = fromHeader?.clientId ?? request.client_id;
  const clientSecret = fromHeader?.clientSecret ?? request.client_secret;
  if (!clientId)
    throw new OAuthError('BAD_CLIENT_ID', 'invalid_client', 'missing or invalid client id', {
      context: { field: ['client_id'] },
    });
  if (!clientSecret)
    throw new OAuthError('BAD_CLIENT_SECRET', 'invalid_client', 'missing or invalid client secret', {
      context: { field: ['client_secret'] },
    });
  return { clientId, clientSecret };
}

export function authenticateClient(app: App | undefined, credentials: ClientCredentials): App {
  if (!app)
    throw new OAuthError('BAD_CLIENT_ID', 'invalid_client', 'missing or invalid client id', {
      context: { field: ['client_id'] },
    });
  if (!secretMatchesHash(credentials.clientSecret, app.clientSecretHash)) {
    throw new OAuthError('BAD_CLIENT_SECRET', 'invalid_client', 'missing or invalid client secret', {
      context: { field: ['client_secret'] },
    });
  }
  return app;
}

/** How long a grant's access tokens live: the standard lifetime unless the install asked for less. */
const lifetimeOf = (grant: { accessTokenLifetimeSeconds?: number }): number =>
  grant.accessTokenLifetimeSeconds ?? accessTokenLifetimeSeconds;

async function mintAccessToken(
  grant: {
    appId: number;
    hubId: number;
    userId: number;
    scopes: string[];
    grantId: string;
    installGeneration?: string;
    accessTokenLifetimeSeconds?: number;
  },
  account: Account | undefined,
): Promise<string> {
  const key = await loadSigningKey();
  const issuedAtSeconds = nowSeconds();
  return signAccessToken(
    {
      appId: grant.appId,
      hubId: grant.hubId,
      userId: grant.userId,
      kind: 'account',
      scopes: grant.scopes.filter(isKnownScope) as Scope[],
      issuedAtSeconds,
      expiresAtSeconds: issuedAtSeconds + lifetimeOf(grant),
      grantId: grant.grantId,
      rateLimits: rateLimitsOf(account),
      ...(grant.installGeneration ? { installGeneration: grant.installGeneration } : {}),
      ...(account?.developerId !== undefined ? { isTestAccount: true } : {}),
    },
    key,
  );
}

/** Access tokens of a grant revoked for a replayed code may still be unexpired until then (and a minute's margin). */
const revokedGrantRetentionSeconds = accessTokenLifetimeSeconds + 60;

/**
 * RFC 6749 4.1.2: a replayed code (by the client it was issued to) revokes every token issued from
 * it: the refresh token and the grant go (refresh fails, introspection and token info say unknown),
 * and the install state lists the grant (API calls with its access tokens stop within a minute).
 */
async function revokeTokensOfUsedCode(codeHash: string, clientId: string): Promise<void> {
  const used = await findUsedCode(codeHash, clientId);
  if (!used) return;
  if (!used.grant) {
    await deleteRefreshToken(used.refreshTokenHash);
    return;
  }
  const { grantId, hubId, appId } = used.grant;
  const now = nowSeconds();
  await revokeInstallGrant(hubId, appId, grantId, now + revokedGrantRetentionSeconds, now);
  forgetInstallState(hubId, appId);
  await revokeGrant(grantId, used.refreshTokenHash);
}

/** How many times a redemption reads the install state again after it changed under it (an end or a new install racing it). */
const maxRedeemAttempts = 3;

/**
 * Redeems a code within the install state it reads: the install's current generation, or a new one
 * when the install had ended (a new install; its predecessor's tokens stay dead). A code issued
 * before the install ended (or of unknown age) does not install the app again. Retried when the state
 * changes between the read and the transaction.
 */
async function redeemInInstall(
  codeHash: string,
  code: AuthCode,
  redeemAt: number,
  grant: { grantId: string; refreshTokenHash: string },
) {
  for (let attempt = 1; ; attempt += 1) {
    // The account's rate limits go into the token's claims; read beside the install state.
    const [account, state] = await Promise.all([findAccount(code.hubId), findInstallState(code.hubId, code.appId)]);
    if (
      state?.endedAt !== undefined &&
      (code.issuedAtMs === undefined || Date.parse(state.endedAt) >= code.issuedAtMs)
    ) {
      throw new OAuthError('BAD_AUTH_CODE', 'invalid_grant', 'missing or unknown auth code');
    }
    const installGeneration = !state ? '' : state.endedAt === undefined ? state.generation : newInstallGeneration();
    const outcome = await redeemAuthCode(
      codeHash,
      redeemAt,
      {
        grantId: grant.grantId,
        appId: code.appId,
        clientId: code.clientId,
        hubId: code.hubId,
        hubDomain: code.hubDomain,
        userId: code.userId,
        userEmail: code.userEmail,
        scopes: code.scopes,
        createdAt: new Date(redeemAt * 1000).toISOString(),
        ...(installGeneration ? { installGeneration } : {}),
        ...(code.accessTokenLifetimeSeconds ? { accessTokenLifetimeSeconds: code.accessTokenLifetimeSeconds } : {}),
      },
      grant.refreshTokenHash,
      installGenerationWrite(code.hubId, code.appId, state, installGeneration),
    );
    if (outcome !== 'install-changed') return { outcome, account, installGeneration };
    forgetInstallState(code.hubId, code.appId);
    // The code is still unused (the transaction wrote nothing): the client may retry it.
    if (attempt >= maxRedeemAttempts)
      throw new ServiceUnavailableError(
        "The app's install is being changed by other requests; retry the token request.",
      );
  }
}

async function exchangeAuthorizationCode(
  request: TokenRequest,
  credentials: ClientCredentials,
): Promise<TokenResponse> {
  if (!request.code)
    throw new OAuthError('BAD_AUTH_CODE', 'invalid_request', 'missing or unknown auth code', {
      context: { field: ['code'] },
    });
  if (!request.redirect_uri)
    throw new OAuthError('BAD_REDIRECT_URI', 'invalid_request', 'missing redirect_uri', {
      context: { field: ['redirect_uri'] },
    });
  const codeHash = hashSecret(request.code);
  const [app, code] = await Promise.all([findAppByClientId(credentials.clientId), findAuthCode(codeHash)]);
  authenticateClient(app, credentials);
  const now = nowSeconds();
  if (!code) {
    await revokeTokensOfUsedCode(codeHash, credentials.clientId);
    throw new OAuthError('BAD_AUTH_CODE', 'invalid_grant', 'missing or unknown auth code');
  }
  if (code.clientId !== credentials.clientId)
    throw new OAuthError('BAD_AUTH_CODE', 'invalid_grant', 'missing or unknown auth code');
  if (code.expiresAtSeconds <= now) throw new OAuthError('EXPIRED_AUTH_CODE', 'invalid_grant', 'auth code is expired');
  if (code.redirectUri !== request.redirect_uri) {
    throw new OAuthError(
      'MISMATCH_REDIRECT_URI_AUTH_CODE',
      'invalid_grant',
      'redirect_uri does not match the one used to get the auth code',
    );
  }
  // Checked before the code is consumed: a stolen code without its verifier leaves the real client's exchange intact.
  requireMatchingVerifier(code.codeChallenge, request.code_verifier);
  return redeemCode(codeHash, code, now);
}

/** The code's tokens: the code consumed, the grant, refresh token and install written (redeemInInstall), an access token minted. */
async function redeemCode(codeHash: string, code: AuthCode, now: number): Promise<TokenResponse> {
  const grantId = randomBytes(12).toString('base64url');
  const refreshToken = generateOpaqueToken();
  const { outcome, account, installGeneration } = await redeemInInstall(codeHash, code, now, {
    grantId,
    refreshTokenHash: hashSecret(refreshToken),
  });
  if (outcome === 'already-used') {
    await revokeTokensOfUsedCode(codeHash, code.clientId);
    throw new OAuthError('BAD_AUTH_CODE', 'invalid_grant', 'missing or unknown auth code');
  }
  const accessToken = await mintAccessToken({ ...code, grantId, installGeneration }, account);
  return {
    token_type: 'bearer',
    refresh_token: refreshToken,
    access_token: accessToken,
    expires_in: lifetimeOf(code),
    hub_id: code.hubId,
    user_id: code.userId,
    scopes: code.scopes,
    token_use: 'access_token',
  };
}

/** What an install made without the browser needs (the sandbox controls; the caller checked the app and scopes). */
export interface DirectInstall {
  app: App;
  hubId: number;
  hubDomain: string;
  userId: number;
  userEmail: string;
  scopes: string[];
  accessTokenLifetimeSeconds?: number;
}

/**
 * Installs an app as the consent page and the token endpoint would, without the browser: a code is
 * issued for the app's first redirect URI and redeemed at once, through the same redemption (a new
 * install generation after an ended install; an install again gives new tokens, earlier ones live on).
 */
export async function installWithoutBrowser(install: DirectInstall): Promise<TokenResponse> {
  const code = generateOpaqueToken();
  const codeHash = hashSecret(code);
  const now = nowSeconds();
  const authCode: AuthCode = {
    clientId: install.app.clientId,
    appId: install.app.appId,
    redirectUri: install.app.redirectUris[0] ?? '',
    hubId: install.hubId,
    hubDomain: install.hubDomain,
    userId: install.userId,
    userEmail: install.userEmail,
    scopes: install.scopes,
    issuedAtMs: now * 1000,
    expiresAtSeconds: now + 60,
    ...(install.accessTokenLifetimeSeconds ? { accessTokenLifetimeSeconds: install.accessTokenLifetimeSeconds } : {}),
  };
  await insertAuthCode(codeHash, authCode);
  return redeemCode(codeHash, authCode, now);
}

/** The scopes a refresh asks for: all of the grant's, or (2026-03) a subset of them; a wider set is invalid_scope. */
function narrowedScopes(granted: string[], requested: string | undefined, options: TokenEndpointOptions): string[] {
  if (!options.allowsScopeNarrowing) return granted;
  const asked = parseScopeList(requested);
  if (asked.length === 0) return granted;
  const extra = asked.filter((scope) => !granted.includes(scope));
  if (extra.length > 0) {
    throw new OAuthError(
      'BAD_SCOPES',
      'invalid_scope',
      `the refresh token was not granted these scopes: ${extra.join(' ')}`,
      { context: { scope: extra } },
    );
  }
  return granted.filter((scope) => asked.includes(scope));
}

async function refreshAccessToken(
  request: TokenRequest,
  credentials: ClientCredentials,
  options: TokenEndpointOptions,
): Promise<TokenResponse> {
  if (!request.refresh_token) {
    throw new OAuthError('BAD_REFRESH_TOKEN', 'invalid_request', 'missing or unknown refresh token', {
      context: { field: ['refresh_token'] },
    });
  }
  const { refreshToken, app } = await findRefreshTokenWithApp(hashSecret(request.refresh_token), credentials.clientId);
  authenticateClient(app, credentials);
  if (!refreshToken || refreshToken.clientId !== credentials.clientId) {
    throw new OAuthError('BAD_REFRESH_TOKEN', 'invalid_grant', 'refresh token is invalid, expired or revoked');
  }
  const scopes = narrowedScopes(refreshToken.scopes, request.scope, options);
  // The account read at every refresh, so an account's new limits reach its installs within one token lifetime.
  const [account, state] = await Promise.all([
    findAccount(refreshToken.hubId),
    findInstallState(refreshToken.hubId, refreshToken.appId),
  ]);
  if (
    !account ||
    standingIn(state, { grantId: refreshToken.grantId, installGeneration: refreshToken.installGeneration ?? '' }) !==
      'live'
  ) {
    // The install ended (or was replaced), or its account was deleted (a test account): its refresh tokens stop at once; this one and its grant are removed as they are met.
    await revokeGrant(refreshToken.grantId, hashSecret(request.refresh_token));
    throw new OAuthError('BAD_REFRESH_TOKEN', 'invalid_grant', 'refresh token is invalid, expired or revoked');
  }
  const accessToken = await mintAccessToken({ ...refreshToken, scopes }, account);
  // HubSpot does not rotate v1 refresh tokens: the same one is returned.
  return {
    token_type: 'bearer',
    refresh_token: request.refresh_token,
    access_token: accessToken,
    expires_in: lifetimeOf(refreshToken),
    hub_id: refreshToken.hubId,
    user_id: refreshToken.userId,
    scopes,
    token_use: 'access_token',
  };
}

/**
 * RFC 6749 4.4: the app's own token. Every scope asked for must be a client-credentials scope
 * (shared/oauth/scopes.ts) that the app lists among its scopes; none asked for is invalid_scope too
 * (RFC 6749 3.3: there is no default). A record of the grant lives as long as the token, so that
 * revocation can end it (introspection and checkAppToken read it).
 */
async function grantClientCredentials(
  request: TokenRequest,
  credentials: ClientCredentials,
): Promise<ClientCredentialsTokenResponse> {
  const app = authenticateClient(await findAppByClientId(credentials.clientId), credentials);
  const asked = parseScopeList(request.scope);
  if (asked.length === 0)
    throw new OAuthError(
      'BAD_SCOPES',
      'invalid_scope',
      'scope is required: the client_credentials scopes the token is for, space-separated',
      { context: { field: ['scope'] } },
    );
  const notOfTheApp = asked.filter((scope) => !isClientCredentialsScope(scope));
  if (notOfTheApp.length > 0)
    throw new OAuthError(
      'BAD_SCOPES',
      'invalid_scope',
      `client_credentials grants only the developer.webhooks_journal scopes, not: ${notOfTheApp.join(' ')}`,
      { context: { scope: notOfTheApp } },
    );
  const notGranted = asked.filter((scope) => !app.scopes.includes(scope));
  if (notGranted.length > 0)
    throw new OAuthError(
      'BAD_SCOPES',
      'invalid_scope',
      `the app was not granted these scopes: ${notGranted.join(' ')}`,
      {
        context: { scope: notGranted },
      },
    );
  const grantId = randomBytes(12).toString('base64url');
  const issuedAtSeconds = nowSeconds();
  const expiresAtSeconds = issuedAtSeconds + accessTokenLifetimeSeconds;
  const [key] = await Promise.all([
    loadSigningKey(),
    insertAppGrant({
      grantId,
      appId: app.appId,
      clientId: app.clientId,
      scopes: asked,
      createdAt: new Date(issuedAtSeconds * 1000).toISOString(),
      expiresAtSeconds,
    }),
  ]);
  const accessToken = signAccessToken(
    {
      kind: 'app',
      appId: app.appId,
      hubId: 0,
      userId: 0,
      scopes: asked.filter(isKnownScope),
      issuedAtSeconds,
      expiresAtSeconds,
      grantId,
    },
    key,
  );
  return {
    token_type: 'bearer',
    access_token: accessToken,
    expires_in: accessTokenLifetimeSeconds,
    token_use: 'client_credentials',
    scopes: asked,
  };
}

export async function issueTokens(
  request: TokenRequest,
  authorization: string | undefined,
  options: TokenEndpointOptions = v1Options,
): Promise<TokenResponse | ClientCredentialsTokenResponse> {
  const grantType = request.grant_type;
  if (!grantType)
    throw new OAuthError('BAD_GRANT_TYPE', 'invalid_request', 'missing grant_type', {
      context: { field: ['grant_type'] },
    });
  if (grantType === 'client_credentials' && options.allowsClientCredentials)
    return grantClientCredentials(request, clientCredentialsOf(request, authorization));
  if (grantType !== 'authorization_code' && grantType !== 'refresh_token') {
    throw new OAuthError(
      'UNSUPPORTED_GRANT_TYPE',
      'unsupported_grant_type',
      `grant_type ${grantType} is not supported`,
      { context: { field: ['grant_type'] } },
    );
  }
  const credentials = clientCredentialsOf(request, authorization);
  return grantType === 'authorization_code'
    ? exchangeAuthorizationCode(request, credentials)
    : refreshAccessToken(request, credentials, options);
}
