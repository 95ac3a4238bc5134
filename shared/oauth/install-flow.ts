import { findAccount, findAccounts } from '../db/accounts';
import { findAppByClientId, type App } from '../db/apps';
import { insertAuthCode } from '../db/oauth-grants';
import {
  clearLoginFailures,
  extendLoginLock,
  findLoginAttempts,
  findUserByEmail,
  reserveLoginAttempt,
  type User,
} from '../db/users';
import { nowMs, nowSeconds } from '../base/clock';
import { ValidationError } from '../base/errors';
import { checkCodeChallenge } from './pkce';
import { isClientCredentialsScope, parseScopeList } from './scopes';
import { generateOpaqueToken, hashSecret } from './secrets';
import { verifyPassword, verifyPasswordOfUnknownUser } from './passwords';

/** What the install URL carries; both the singular and the plural parameter names are accepted. */
export interface AuthorizeQuery {
  client_id?: string;
  redirect_uri?: string;
  scope?: string;
  scopes?: string;
  optional_scope?: string;
  optional_scopes?: string;
  state?: string;
  code_challenge?: string;
  code_challenge_method?: string;
}

export interface AuthorizeRequest {
  clientId: string;
  redirectUri: string;
  scopes: string[];
  optionalScopes: string[];
  state?: string;
  /** PKCE (S256): stored on the code; the token exchange then needs the verifier. */
  codeChallenge?: string;
}

export type AuthorizeCheck =
  | { outcome: 'show-error'; message: string }
  | { outcome: 'redirect'; location: string }
  | { outcome: 'ok'; app: App; request: AuthorizeRequest };

export const authCodeLifetimeSeconds = 600;

export function redirectWith(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined) url.searchParams.set(name, value);
  }
  return url.toString();
}

/**
 * Checks an install request. An unknown client or unregistered redirect URI is shown as an
 * error page and never redirected to (RFC 6749 4.1.2.1); any later problem is reported to the
 * app by redirect.
 */
export async function checkAuthorizeRequest(query: AuthorizeQuery): Promise<AuthorizeCheck> {
  const clientId = query.client_id?.trim();
  if (!clientId) return { outcome: 'show-error', message: 'The install link has no client_id.' };
  const app = await findAppByClientId(clientId);
  if (!app) return { outcome: 'show-error', message: 'No app has this client_id. Check the install link.' };
  const redirectUri = query.redirect_uri;
  if (!redirectUri) return { outcome: 'show-error', message: 'The install link has no redirect_uri.' };
  if (!app.redirectUris.includes(redirectUri)) {
    return {
      outcome: 'show-error',
      message: 'The redirect_uri does not match any redirect URL registered for this app.',
    };
  }
  const requested = parseScopeList(query.scope ?? query.scopes);
  const optional = parseScopeList(query.optional_scope ?? query.optional_scopes);
  const registered = new Set([...app.scopes, ...app.optionalScopes]);
  const unregistered = [...requested, ...optional].filter((scope) => !registered.has(scope));
  if (unregistered.length > 0) {
    return {
      outcome: 'redirect',
      location: redirectWith(redirectUri, {
        error: 'invalid_scope',
        error_description: `The app did not register these scopes: ${unregistered.join(' ')}`,
        state: query.state,
      }),
    };
  }
  const ofTheApp = [...requested, ...optional].filter(isClientCredentialsScope);
  if (ofTheApp.length > 0) {
    return {
      outcome: 'redirect',
      location: redirectWith(redirectUri, {
        error: 'invalid_scope',
        error_description: `These scopes are the app's own, granted by the client_credentials grant and never by an install: ${ofTheApp.join(' ')}`,
        state: query.state,
      }),
    };
  }
  const pkce = checkCodeChallenge(query.code_challenge, query.code_challenge_method);
  if (pkce.outcome === 'invalid') {
    return {
      outcome: 'redirect',
      location: redirectWith(redirectUri, {
        error: 'invalid_request',
        error_description: pkce.description,
        state: query.state,
      }),
    };
  }
  // An install link without a scope asks for the app's scopes an install can grant.
  const scopes = requested.length > 0 ? requested : app.scopes.filter((scope) => !isClientCredentialsScope(scope));
  return {
    outcome: 'ok',
    app,
    request: {
      clientId,
      redirectUri,
      scopes,
      optionalScopes: optional.filter((scope) => !scopes.includes(scope)),
      state: query.state,
      ...(pkce.codeChallenge ? { codeChallenge: pkce.codeChallenge } : {}),
    },
  };
}

export type LoginOutcome =
  | { outcome: 'ok'; user: User }
  | { outcome: 'bad-credentials' }
  | { outcome: 'locked'; retryAfterSeconds: number };

/** After this many failures in a row each further failure locks the login for twice as long. */
const freeFailures = 3;
const maxLockSeconds = 900;

export function lockSecondsAfter(failures: number): number {
  return failures < freeFailures ? 0 : Math.min(2 ** (failures - freeFailures + 1), maxLockSeconds);
}

/** Attempts that lose the race to reserve read again; more rounds than free failures can only mean a lock is coming. */
const maxReserveRounds = freeFailures + 2;
const loginStateTtlSeconds = 24 * 3600;

type Reservation = { outcome: 'reserved'; failures: number } | { outcome: 'locked'; retryAfterSeconds: number };

function lockedFor(lockedUntilMs: number, now: number): { outcome: 'locked'; retryAfterSeconds: number } {
  return { outcome: 'locked', retryAfterSeconds: Math.max(1, Math.ceil((lockedUntilMs - now) / 1000)) };
}

/**
 * Reserves the right to check one password: read the state, then one conditional update that counts
 * this attempt as a failure in advance (with the lock that failure earns) and requires the state read
 * and an expired lock. Parallel attempts cannot all pass a lock that just expired: one reserves, the
 * others read the new lock. Success clears the count afterwards.
 */
async function reserveAttempt(email: string): Promise<Reservation> {
  for (let round = 0; round < maxReserveRounds; round += 1) {
    const seen = await findLoginAttempts(email);
    const now = nowMs();
    if (seen.lockedUntilMs > now) return lockedFor(seen.lockedUntilMs, now);
    const failures = seen.failures + 1;
    const reserved = { failures, lockedUntilMs: now + lockSecondsAfter(failures) * 1000 };
    if (await reserveLoginAttempt(email, seen.failures, reserved, now, nowSeconds() + loginStateTtlSeconds))
      return { outcome: 'reserved', failures };
  }
  return { outcome: 'locked', retryAfterSeconds: 1 };
}

export async function logIn(emailInput: string, password: string): Promise<LoginOutcome> {
  const email = emailInput.trim().toLowerCase();
  const reservation = await reserveAttempt(email);
  if (reservation.outcome === 'locked') return reservation;
  const user = email === '' ? undefined : await findUserByEmail(email);
  const isValid = user
    ? await verifyPassword(password, user.passwordHash)
    : await verifyPasswordOfUnknownUser(password);
  if (user && isValid) {
    await clearLoginFailures(email);
    return { outcome: 'ok', user };
  }
  const lockSeconds = lockSecondsAfter(reservation.failures);
  if (lockSeconds === 0) return { outcome: 'bad-credentials' };
  // The lock counts from the end of the check; extendLoginLock never moves it earlier.
  const now = nowMs();
  await extendLoginLock(email, now + lockSeconds * 1000);
  return lockedFor(now + lockSeconds * 1000, now);
}

/** Allow: a single-use code bound to client and redirect URI; deny: access_denied. */
export async function decideConsent(
  request: AuthorizeRequest,
  app: App,
  user: User,
  decision: 'allow' | 'deny',
  hubId: number | undefined,
): Promise<string> {
  if (decision === 'deny') {
    return redirectWith(request.redirectUri, {
      error: 'access_denied',
      error_description: 'The user denied the install.',
      state: request.state,
    });
  }
  if (hubId === undefined || !user.hubIds.includes(hubId)) {
    throw new ValidationError('Choose one of your accounts to install the app in.', { context: { field: ['hub_id'] } });
  }
  const account = await findAccount(hubId);
  if (!account) throw new ValidationError('That account no longer exists.', { context: { field: ['hub_id'] } });
  const code = generateOpaqueToken();
  const issuedAtMs = nowMs();
  await insertAuthCode(hashSecret(code), {
    clientId: app.clientId,
    appId: app.appId,
    redirectUri: request.redirectUri,
    hubId,
    hubDomain: account.domain,
    userId: user.userId,
    userEmail: user.email,
    scopes: [...request.scopes, ...request.optionalScopes],
    issuedAtMs,
    expiresAtSeconds: Math.floor(issuedAtMs / 1000) + authCodeLifetimeSeconds,
    ...(request.codeChallenge ? { codeChallenge: request.codeChallenge } : {}),
  });
  return redirectWith(request.redirectUri, { code, state: request.state });
}

export interface ConsentContext {
  user: User;
  accounts: Awaited<ReturnType<typeof findAccounts>>;
}

/** The logged-in user and the accounts they may install into; undefined when the user is gone. */
export async function loadConsentContext(email: string): Promise<ConsentContext | undefined> {
  const user = await findUserByEmail(email);
  if (!user) return undefined;
  return { user, accounts: await findAccounts(user.hubIds) };
}
