import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { assertLocalDynamoDb } from './local-only';
import { startGateway, type RunningGateway } from '../../local/local-gateway';
import { createAccount, createApp, createUser, type AccountLimits } from '../../shared/admin/provisioning';
import type { RateLimits } from '../../shared/limits/rate-limits';
import { findUserByEmail } from '../../shared/db/users';
import { checkAuthorizeRequest, decideConsent } from '../../shared/oauth/install-flow';
import { signAccessToken, type AccessTokenKind } from '../../shared/oauth/access-token';
import type { SecretsDocument } from '../../shared/oauth/key-generation';
import { clientCredentialsScopes, isClientCredentialsScope, type Scope } from '../../shared/oauth/scopes';
import { nowSeconds, resetClock } from '../../shared/base/clock';

assertLocalDynamoDb();

let counter = 0;
/** A value unique within this run, for emails, domains and names. */
export function unique(prefix: string): string {
  counter += 1;
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${counter}`;
}

/** The gateway for one test file, in-process, on a free 127.0.0.1 port. */
export async function startTestGateway(): Promise<RunningGateway> {
  return startGateway(0);
}

/**
 * Starts the gateway before the file's tests and stops it after them; resets the clock after
 * each test. Returns the running gateway's base URL getter.
 */
export function useTestGateway(): { readonly baseUrl: string } {
  let gateway: RunningGateway | undefined;
  beforeAll(async () => {
    gateway = await startTestGateway();
  });
  afterAll(async () => {
    await gateway?.close();
  });
  afterEach(() => {
    resetClock();
  });
  return {
    get baseUrl(): string {
      if (!gateway) throw new Error('the gateway starts in beforeAll');
      return gateway.baseUrl;
    },
  };
}

export interface Installation {
  appId: number;
  clientId: string;
  clientSecret: string;
  /** The app's developer account and its API key (`?hapikey=`), which manages the app's timeline event types. */
  developerId: number;
  developerApiKey: string;
  redirectUri: string;
  hubId: number;
  hubDomain: string;
  userId: number;
  userEmail: string;
  password: string;
  scopes: string[];
}

export interface InstalledTokens extends Installation {
  accessToken: string;
  refreshToken: string;
}

/** The scopes of a provisioned app unless a test names its own. */
export const defaultAppScopes: readonly string[] = [
  'oauth',
  'crm.objects.companies.read',
  'crm.objects.companies.write',
  'crm.schemas.companies.read',
  'crm.schemas.companies.write',
  'timeline',
  // Pipelines (deals and tickets) and owners: every account row of the route table is reachable with the default install.
  'crm.objects.contacts.read',
  'crm.objects.contacts.write',
  'crm.objects.deals.read',
  'crm.objects.deals.write',
  'tickets',
  // Products and line items (in the scope catalogue's order, as tokens list them).
  'e-commerce',
  // Lists.
  'crm.lists.read',
  'crm.lists.write',
  'crm.schemas.deals.write',
  'crm.objects.owners.read',
  // Custom objects: the schemas API and the records of the account's own types.
  'crm.objects.custom.read',
  'crm.objects.custom.write',
  'crm.schemas.custom.read',
  'crm.schemas.custom.write',
];

/** The default scopes and the app's own (the webhooks journal's, which only the client-credentials grant gives). */
export const journalAppScopes: readonly string[] = [...defaultAppScopes, ...clientCredentialsScopes];

/**
 * A fresh app, account and user. The account's rate limits are off unless `limits` is given: only
 * the tests of the limits run with them (bursting tests would otherwise meet a 429).
 */
export async function provision(
  options: { scopes?: string[]; optionalScopes?: string[]; redirectUris?: string[]; limits?: AccountLimits } = {},
): Promise<Installation> {
  const scopes = options.scopes ?? [...defaultAppScopes];
  const redirectUris = options.redirectUris ?? ['https://app.example.com/oauth/callback'];
  const app = await createApp({
    name: unique('App'),
    redirectUris,
    scopes,
    optionalScopes: options.optionalScopes ?? [],
  });
  if (app.developerApiKey === undefined)
    throw new Error('a new app without --developer-id gets a new developer account and key');
  const account = await createAccount(
    `${unique('hub')}.example`,
    options.limits ?? { tenSecondlyLimit: 0, searchPerSecondLimit: 0 },
  );
  const password = 'correct horse battery staple';
  const user = await createUser(`${unique('user')}@example.com`, password, [account.hubId]);
  return {
    ...app,
    developerApiKey: app.developerApiKey,
    redirectUri: redirectUris[0] ?? '',
    hubId: account.hubId,
    hubDomain: account.domain,
    userId: user.userId,
    userEmail: user.email,
    password,
    scopes,
  };
}

/** The app's scopes an install can grant: all but the app's own (the client-credentials grant's). */
const installableScopesOf = (installation: Pick<Installation, 'scopes'>): string[] =>
  installation.scopes.filter((scope) => !isClientCredentialsScope(scope));

/** Runs the consent step in-process and returns a fresh authorization code. */
export async function authorizationCodeFor(
  installation: Installation,
  scopes = installableScopesOf(installation),
  pkce: { code_challenge?: string; code_challenge_method?: string } = {},
): Promise<string> {
  const check = await checkAuthorizeRequest({
    client_id: installation.clientId,
    redirect_uri: installation.redirectUri,
    scope: scopes.join(' '),
    ...pkce,
  });
  if (check.outcome !== 'ok') throw new Error(`authorize check failed: ${JSON.stringify(check)}`);
  const user = await findUserByEmail(installation.userEmail);
  if (!user) throw new Error('user missing');
  const location = await decideConsent(check.request, check.app, user, 'allow', installation.hubId);
  const code = new URL(location).searchParams.get('code');
  if (!code) throw new Error(`no code in ${location}`);
  return code;
}

export async function postForm(
  baseUrl: string,
  pathName: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${baseUrl}${pathName}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
}

/** Exchanges an authorization code of `installation`'s app at the real token endpoint. */
async function exchangeCode(
  gateway: { readonly baseUrl: string },
  installation: Installation,
  code: string,
): Promise<{ accessToken: string; refreshToken: string }> {
  const response = await postForm(gateway.baseUrl, '/oauth/v1/token', {
    grant_type: 'authorization_code',
    client_id: installation.clientId,
    client_secret: installation.clientSecret,
    redirect_uri: installation.redirectUri,
    code,
  });
  const body = (await response.json()) as { access_token?: string; refresh_token?: string };
  if (response.status !== 200 || !body.access_token || !body.refresh_token)
    throw new Error(`token exchange failed: ${response.status} ${JSON.stringify(body)}`);
  return { accessToken: body.access_token, refreshToken: body.refresh_token };
}

/** Provisions and installs an app through the real token endpoint. */
export async function install(
  gateway: { readonly baseUrl: string },
  options: Parameters<typeof provision>[0] = {},
): Promise<InstalledTokens> {
  const installation = await provision(options);
  return { ...installation, ...(await exchangeCode(gateway, installation, await authorizationCodeFor(installation))) };
}

/** Installs `installation`'s app in another account, as that account's user, granting `scopes`; returns the access token. */
export async function installInto(
  gateway: { readonly baseUrl: string },
  installation: Installation,
  account: Pick<Installation, 'hubId' | 'userId' | 'userEmail'>,
  scopes = installableScopesOf(installation),
): Promise<string> {
  const code = await authorizationCodeFor(
    { ...installation, hubId: account.hubId, userId: account.userId, userEmail: account.userEmail },
    scopes,
  );
  return (await exchangeCode(gateway, installation, code)).accessToken;
}

/** The newest signing key of the test run's secrets file, as the token endpoint signs with it. */
export function testSigningKey(): { kid: string; privateKey: KeyObject } {
  const secretsFile = process.env.SECRETS_FILE ?? path.join(process.env.TEST_STATE_DIR ?? '', 'secrets.json');
  const document = JSON.parse(readFileSync(secretsFile, 'utf8')) as SecretsDocument;
  const newest = document.signingKeys?.at(-1);
  if (!newest) throw new Error('no signing key');
  return {
    kid: newest.kid,
    privateKey: createPrivateKey({ key: Buffer.from(newest.privateKey, 'base64'), format: 'der', type: 'pkcs8' }),
  };
}

/**
 * Signs an access token directly with the run's local key, for tests that need a token of a
 * given hub, app or scope set without an install (it verifies exactly like an issued one).
 */
export function signTestAccessToken(claims: {
  appId: number;
  hubId: number;
  userId?: number;
  scopes: Scope[];
  expiresInSeconds?: number;
  rateLimits?: RateLimits;
  /** 'app': an app token as the client-credentials grant signs it (of no grant record unless `grantId` names one). */
  kind?: AccessTokenKind;
  grantId?: string;
}): string {
  const issuedAtSeconds = nowSeconds();
  return signAccessToken(
    {
      kind: claims.kind ?? 'account',
      appId: claims.appId,
      hubId: claims.hubId,
      userId: claims.userId ?? 1,
      scopes: claims.scopes,
      issuedAtSeconds,
      expiresAtSeconds: issuedAtSeconds + (claims.expiresInSeconds ?? 1800),
      grantId: claims.grantId ?? 'test-grant',
      rateLimits: claims.rateLimits ?? { tenSecondly: 0, searchPerSecond: 0 },
    },
    testSigningKey(),
  );
}

/**
 * The app's own token from the client-credentials grant of the 2026-03 token endpoint, for `scopes`
 * (the app must list them: provision it with `journalAppScopes`).
 */
export async function clientCredentialsToken(
  gateway: { readonly baseUrl: string },
  app: Pick<Installation, 'clientId' | 'clientSecret'>,
  scopes: readonly string[] = clientCredentialsScopes,
): Promise<string> {
  const response = await postForm(gateway.baseUrl, '/oauth/2026-03/token', {
    grant_type: 'client_credentials',
    client_id: app.clientId,
    client_secret: app.clientSecret,
    scope: scopes.join(' '),
  });
  const body = (await response.json()) as { access_token?: string };
  if (response.status !== 200 || !body.access_token)
    throw new Error(`client_credentials failed: ${response.status} ${JSON.stringify(body)}`);
  return body.access_token;
}

export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

/** The documented error object (and the OAuth token error, which adds error/error_description). */
export interface ErrorJson {
  status: string;
  message: string;
  correlationId: string;
  category: string;
  subCategory?: string;
  context?: Record<string, string[]>;
  errors?: { message: string; code?: string; in?: string; context?: Record<string, string[]> }[];
  error?: string;
  error_description?: string;
}

export interface TokenJson {
  token_type: string;
  access_token: string;
  refresh_token: string;
  expires_in: number;
  hub_id: number;
  user_id: number;
  scopes: string[];
  token_use: string;
}

/** Parses a response body as the type the test expects (fetch types it as unknown). */
export async function jsonOf<T = ErrorJson>(response: Response): Promise<T> {
  return (await response.json()) as T;
}
