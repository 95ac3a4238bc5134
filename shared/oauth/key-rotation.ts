import { randomBytes } from 'node:crypto';
import type { SecretsDocument, SigningKeyMaterial } from './key-generation';

/**
 * The active key plus the one before it: access tokens live 30 minutes, so after a rotation the
 * previous key must keep verifying until the tokens it signed have expired, and no longer.
 */
export const retainedSigningKeys = 2;

/** Unique per key and sortable by creation, so operators can tell which key is newest. */
export function newKeyId(now: Date): string {
  return `k${now.toISOString().slice(0, 10).replaceAll('-', '')}-${randomBytes(4).toString('hex')}`;
}

/**
 * Reads a stored secret value. Anything that is not a secrets document (such as the random
 * placeholder Secrets Manager writes when the secret is created) reads as an empty one.
 */
export function parseSecretsDocument(raw: string | undefined): SecretsDocument {
  if (!raw) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return {};
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
  const candidate = parsed as { signingKeys?: unknown; sessionSecret?: unknown };
  const document: SecretsDocument = {};
  if (Array.isArray(candidate.signingKeys)) {
    document.signingKeys = candidate.signingKeys.filter(isSigningKey);
  }
  if (typeof candidate.sessionSecret === 'string' && candidate.sessionSecret !== '') {
    document.sessionSecret = candidate.sessionSecret;
  }
  return document;
}

function isSigningKey(value: unknown): value is SigningKeyMaterial {
  if (typeof value !== 'object' || value === null) return false;
  const key = value as Record<string, unknown>;
  return typeof key.kid === 'string' && typeof key.privateKey === 'string' && typeof key.publicKey === 'string';
}

/** Appends the new key (newest last: the token function signs with it) and drops keys past the retained count. */
export function withNewSigningKey(document: SecretsDocument, key: SigningKeyMaterial): SecretsDocument {
  const keys = [...(document.signingKeys ?? []).filter((existing) => existing.kid !== key.kid), key];
  return { ...document, signingKeys: keys.slice(-retainedSigningKeys) };
}
