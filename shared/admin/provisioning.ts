import { randomBytes, randomUUID } from 'node:crypto';
import { findAccount, insertAccount, updateAccountLimits, type Account } from '../db/accounts';
import { insertApp } from '../db/apps';
import { nextSequenceValue } from '../db/counters';
import { findUserByEmail, insertUser } from '../db/users';
import { ConflictError, ValidationError } from '../http/errors';
import { hashPassword } from '../oauth/passwords';
import { isKnownScope, scopeCatalog } from '../oauth/scopes';
import { hashSecret } from '../oauth/secrets';

/**
 * What the seed spec takes as given: a public app exists, an account exists, and a user
 * of that account can install the app. The admin CLI and the local seed call these.
 */
export interface NewApp {
  name: string;
  redirectUris: string[];
  scopes: string[];
  optionalScopes: string[];
}

export interface CreatedApp {
  appId: number;
  clientId: string;
  clientSecret: string;
}

function requireKnownScopes(scopes: string[], field: string): void {
  const unknown = scopes.filter((scope) => !isKnownScope(scope));
  if (unknown.length > 0) {
    throw new ValidationError(`unknown scopes: ${unknown.join(', ')}; known scopes: ${scopeCatalog.join(', ')}`, { context: { [field]: unknown } });
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
    throw new ValidationError(`redirect URI must be https (http only on localhost) and have no fragment: ${uri}`, { context: { redirectUri: [uri] } });
  }
}

export async function createApp(input: NewApp): Promise<CreatedApp> {
  if (input.name.trim() === '') throw new ValidationError('app name is empty', { context: { name: [''] } });
  if (input.redirectUris.length === 0) throw new ValidationError('at least one redirect URI is required', { context: { redirectUri: [] } });
  input.redirectUris.forEach(requireRedirectUri);
  if (input.scopes.length === 0) throw new ValidationError('at least one scope is required', { context: { scopes: [] } });
  requireKnownScopes(input.scopes, 'scopes');
  requireKnownScopes(input.optionalScopes, 'optionalScopes');
  const appId = await nextSequenceValue('appId', 1000001);
  const clientId = randomUUID();
  const clientSecret = randomBytes(32).toString('base64url');
  await insertApp({
    appId, clientId, name: input.name.trim(), redirectUris: [...new Set(input.redirectUris)], scopes: [...new Set(input.scopes)],
    optionalScopes: [...new Set(input.optionalScopes)], clientSecretHash: hashSecret(clientSecret), createdAt: new Date().toISOString(),
  });
  return { appId, clientId, clientSecret };
}

/** An account's own rate limits (0 = no limit for that account); unset ones take the defaults. */
export type AccountLimits = Pick<Account, 'tenSecondlyLimit' | 'searchPerSecondLimit'>;

function requireLimits(limits: AccountLimits): AccountLimits {
  for (const [name, value] of Object.entries(limits)) {
    if (value !== undefined && !(Number.isSafeInteger(value) && value >= 0 && value <= 1_000_000)) {
      throw new ValidationError(`${name} must be a whole number from 0 (no limit) to 1000000`, { context: { [name]: [String(value)] } });
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

export async function createAccount(domainInput: string, limits: AccountLimits = {}): Promise<Pick<Account, 'hubId' | 'domain'> & AccountLimits> {
  const domain = domainInput.trim().toLowerCase();
  if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/.test(domain)) {
    throw new ValidationError(`not a domain name: ${domainInput}`, { context: { domain: [domainInput] } });
  }
  const checked = requireLimits(limits);
  const hubId = await nextSequenceValue('hubId', 40000001);
  await insertAccount({ hubId, domain, createdAt: new Date().toISOString(), ...checked });
  return { hubId, domain, ...checked };
}

export async function createUser(emailInput: string, password: string, hubIds: number[]): Promise<{ userId: number; email: string }> {
  const email = emailInput.trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new ValidationError(`not an email address: ${emailInput}`, { context: { email: [emailInput] } });
  if (password.length < 8) throw new ValidationError('password must have at least 8 characters', { context: { password: ['too short'] } });
  if (hubIds.length === 0) throw new ValidationError('a user needs at least one account (--hub)', { context: { hub: [] } });
  for (const hubId of hubIds) {
    if (!(await findAccount(hubId))) throw new ValidationError(`no account with hub id ${hubId}`, { context: { hub: [String(hubId)] } });
  }
  if (await findUserByEmail(email)) throw new ConflictError(`a user with email ${email} exists`, { context: { email: [email] } });
  const userId = await nextSequenceValue('userId', 7001);
  await insertUser({ userId, email, passwordHash: await hashPassword(password), hubIds: [...new Set(hubIds)], createdAt: new Date().toISOString() });
  return { userId, email };
}
