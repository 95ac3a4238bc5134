import { randomBytes, randomUUID } from 'node:crypto';
import { findAccount, insertAccount, updateAccountLimits, type Account } from '../db/accounts';
import type { App } from '../db/apps';
import { nextSequenceValue } from '../db/counters';
import {
  findDeveloper,
  insertAppOfDeveloper,
  insertDeveloperOfExistingApps,
  insertDeveloperWithApp,
} from '../db/developers';
import { insertUserWithOwners, maxAccountsPerNewUser } from '../db/owners';
import { findUserByEmail } from '../db/users';
import { ConflictError, ValidationError } from '../base/errors';
import { hashPassword } from '../oauth/passwords';
import { isClientCredentialsScope, isKnownScope, scopeCatalog } from '../oauth/scopes';
import { generateOpaqueToken, hashSecret } from '../oauth/secrets';
import { webhookSigningSecretWrite } from '../db/webhooks';
import { sealClientSecret } from '../webhooks/client-secret-seal';

/**
 * What the platform takes as given rather than serving over HTTP: a public app exists, an account
 * exists, and a user of that account can install the app. The admin CLI and the local seed call these.
 */
export interface NewApp {
  name: string;
  redirectUris: string[];
  scopes: string[];
  optionalScopes: string[];
  /** Adds the app to this existing developer account; without it a new developer account is created. */
  developerId?: number;
}

export interface CreatedApp {
  appId: number;
  clientId: string;
  clientSecret: string;
  developerId: number;
  /** Only when a new developer account was created: its API key, shown once (only its hash is stored). */
  developerApiKey?: string;
}

function requireKnownScopes(scopes: string[], field: string): void {
  const unknown = scopes.filter((scope) => !isKnownScope(scope));
  if (unknown.length > 0) {
    throw new ValidationError(`unknown scopes: ${unknown.join(', ')}; known scopes: ${scopeCatalog().join(', ')}`, {
      context: { [field]: unknown },
    });
  }
}

function requireRedirectUri(uri: string): void {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw new ValidationError(`redirect URI is not an absolute URL: ${uri}`, { context: { redirectUri: [uri] } });
  }
  const isLoopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  if (url.hash !== '' || !(url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback))) {
    throw new ValidationError(`redirect URI must be https (http only on localhost) and have no fragment: ${uri}`, {
      context: { redirectUri: [uri] },
    });
  }
}

export async function createApp(input: NewApp): Promise<CreatedApp> {
  if (input.name.trim() === '') throw new ValidationError('app name is empty', { context: { name: [''] } });
  if (input.redirectUris.length === 0)
    throw new ValidationError('at least one redirect URI is required', { context: { redirectUri: [] } });
  input.redirectUris.forEach(requireRedirectUri);
  if (input.scopes.length === 0)
    throw new ValidationError('at least one scope is required', { context: { scopes: [] } });
  requireKnownScopes(input.scopes, 'scopes');
  requireKnownScopes(input.optionalScopes, 'optionalScopes');
  // The installing user chooses optional scopes; the app's own scopes (client credentials) are no user's to give.
  const ownOptional = input.optionalScopes.filter(isClientCredentialsScope);
  if (ownOptional.length > 0)
    throw new ValidationError(
      `the app's own scopes are listed among its scopes, not its optional scopes: ${ownOptional.join(', ')}`,
      { context: { optionalScopes: ownOptional } },
    );
  const existing = input.developerId === undefined ? undefined : await findDeveloper(input.developerId);
  if (input.developerId !== undefined && !existing) {
    throw new ValidationError(`no developer account with id ${input.developerId}`, {
      context: { developerId: [String(input.developerId)] },
    });
  }
  const appId = await nextSequenceValue('appId', 1000001);
  const clientId = randomUUID();
  const clientSecret = randomBytes(32).toString('base64url');
  const developerId = existing?.developerId ?? (await nextSequenceValue('developerId', 5001));
  const app: App = {
    appId,
    clientId,
    name: input.name.trim(),
    redirectUris: [...new Set(input.redirectUris)],
    scopes: [...new Set(input.scopes)],
    optionalScopes: [...new Set(input.optionalScopes)],
    clientSecretHash: hashSecret(clientSecret),
    developerId,
    createdAt: new Date().toISOString(),
  };
  // Webhooks are signed with the client secret: it is kept sealed beside the app (never in the clear).
  const sealed = await sealClientSecret(clientSecret, appId);
  const signing = sealed ? [webhookSigningSecretWrite(appId, sealed)] : [];
  if (existing) {
    await insertAppOfDeveloper(existing, app, signing);
    return { appId, clientId, clientSecret, developerId };
  }
  const developerApiKey = generateOpaqueToken();
  await insertDeveloperWithApp(
    { developerId, apiKeyHash: hashSecret(developerApiKey), createdAt: app.createdAt },
    app,
    signing,
  );
  return { appId, clientId, clientSecret, developerId, developerApiKey };
}

/** A developer account with a new API key for an app created before developer accounts existed. */
export async function createDeveloperForApp(appId: number): Promise<{ developerId: number; developerApiKey: string }> {
  const developerId = await nextSequenceValue('developerId', 5001);
  const developerApiKey = generateOpaqueToken();
  await insertDeveloperOfExistingApps(
    { developerId, apiKeyHash: hashSecret(developerApiKey), createdAt: new Date().toISOString() },
    [appId],
  );
  return { developerId, developerApiKey };
}

/** Labels of letters, digits and inner hyphens, one dot apart: each character matches one way only. */
const accountDomainPattern = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/;
export function isAccountDomain(domain: string): boolean {
  return domain.length <= 253 && accountDomainPattern.test(domain);
}

/** RFC 5321's limit on a forward path. */
const maxEmailLength = 254;

/**
 * Something@something.something without white space. Not `/^[^\s@]+@[^\s@]+\.[^\s@]+$/`: both
 * runs around the dot also match dots, so a long run of dots is split every way (quadratic).
 */
export function isEmailAddress(email: string): boolean {
  if (email.length > maxEmailLength || /\s/.test(email)) return false;
  const at = email.indexOf('@');
  if (at <= 0 || email.indexOf('@', at + 1) >= 0) return false;
  const domain = email.slice(at + 1);
  const dot = domain.indexOf('.', 1);
  return dot > 0 && dot < domain.length - 1;
}

/** An account's own rate limits (0 = no limit for that account); unset ones take the defaults. */
export type AccountLimits = Pick<Account, 'tenSecondlyLimit' | 'searchPerSecondLimit'>;

function requireLimits(limits: AccountLimits): AccountLimits {
  for (const [name, value] of Object.entries(limits)) {
    if (value !== undefined && !(Number.isSafeInteger(value) && value >= 0 && value <= 1_000_000)) {
      throw new ValidationError(`${name} must be a whole number from 0 (no limit) to 1000000`, {
        context: { [name]: [String(value)] },
      });
    }
  }
  return {
    ...(limits.tenSecondlyLimit !== undefined ? { tenSecondlyLimit: limits.tenSecondlyLimit } : {}),
    ...(limits.searchPerSecondLimit !== undefined ? { searchPerSecondLimit: limits.searchPerSecondLimit } : {}),
  };
}

/** Changes an account's limits; tokens issued (or refreshed) afterwards carry them. */
export async function updateAccount(hubId: number, limits: AccountLimits): Promise<Account> {
  const updated = await updateAccountLimits(hubId, requireLimits(limits));
  if (!updated) throw new ValidationError(`no account with hub id ${hubId}`, { context: { hub: [String(hubId)] } });
  return updated;
}

export async function createAccount(
  domainInput: string,
  limits: AccountLimits = {},
): Promise<Pick<Account, 'hubId' | 'domain'> & AccountLimits> {
  const domain = domainInput.trim().toLowerCase();
  if (!isAccountDomain(domain)) {
    throw new ValidationError(`not a domain name: ${domainInput}`, { context: { domain: [domainInput] } });
  }
  const checked = requireLimits(limits);
  const hubId = await nextSequenceValue('hubId', 40000001);
  await insertAccount({ hubId, domain, createdAt: new Date().toISOString(), isOrderIndexed: true, ...checked });
  return { hubId, domain, ...checked };
}

/** The names a user may have (the owner's firstName and lastName); absent ones are empty. */
export interface UserNames {
  firstName?: string;
  lastName?: string;
}

const maxNameLength = 100;

export const hasControlCharacter = (text: string): boolean =>
  [...text].some((character) => {
    const code = character.charCodeAt(0);
    return code < 0x20 || code === 0x7f;
  });

function requireName(value: string | undefined, field: keyof UserNames): string {
  const name = (value ?? '').trim();
  if (name.length > maxNameLength || hasControlCharacter(name)) {
    throw new ValidationError(`${field} must be at most ${maxNameLength} characters without control characters`, {
      context: { [field]: [value ?? ''] },
    });
  }
  return name;
}

/**
 * A user of the given accounts, and with it (same transaction) one owner per account: the account's
 * users are its owners (GET /crm/v3/owners). Each owner id is drawn from one global sequence when the
 * user joins the account and stored, so it never changes, and a user of two accounts is a different
 * owner (a different id) in each.
 */
export async function createUser(
  emailInput: string,
  password: string,
  hubIds: number[],
  names: UserNames = {},
): Promise<{ userId: number; email: string; owners: { hubId: number; ownerId: number }[] }> {
  const email = emailInput.trim().toLowerCase();
  if (!isEmailAddress(email))
    throw new ValidationError(`not an email address: ${emailInput}`, { context: { email: [emailInput] } });
  if (password.length < 8)
    throw new ValidationError('password must have at least 8 characters', { context: { password: ['too short'] } });
  const firstName = requireName(names.firstName, 'firstName');
  const lastName = requireName(names.lastName, 'lastName');
  const accounts = [...new Set(hubIds)];
  if (accounts.length === 0)
    throw new ValidationError('a user needs at least one account (--hub)', { context: { hub: [] } });
  if (accounts.length > maxAccountsPerNewUser) {
    throw new ValidationError(`a new user may belong to at most ${maxAccountsPerNewUser} accounts`, {
      context: { hub: accounts.map(String) },
    });
  }
  for (const hubId of accounts) {
    if (!(await findAccount(hubId)))
      throw new ValidationError(`no account with hub id ${hubId}`, { context: { hub: [String(hubId)] } });
  }
  if (await findUserByEmail(email))
    throw new ConflictError(`a user with email ${email} exists`, { context: { email: [email] } });
  const userId = await nextSequenceValue('userId', 7001);
  const createdAt = new Date().toISOString();
  const owners = [];
  for (const hubId of accounts) {
    const ownerId = await nextSequenceValue('ownerId', 100000001);
    owners.push({
      hubId,
      owner: { ownerId, userId, email, firstName, lastName, createdAt, updatedAt: createdAt, archived: false },
    });
  }
  const user = {
    userId,
    email,
    passwordHash: await hashPassword(password),
    hubIds: accounts,
    createdAt,
    ...(firstName === '' ? {} : { firstName }),
    ...(lastName === '' ? {} : { lastName }),
  };
  // Another create of the same email won the race since the check above.
  if ((await insertUserWithOwners(user, owners)) === 'email-taken')
    throw new ConflictError(`a user with email ${email} exists`, { context: { email: [email] } });
  return { userId, email, owners: owners.map(({ hubId, owner }) => ({ hubId, ownerId: owner.ownerId })) };
}
