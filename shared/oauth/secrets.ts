import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Opaque credentials (codes, refresh tokens, client secrets): 256 random bits, region-prefixed like HubSpot's. */
export function generateOpaqueToken(): string {
  return `na1-${randomBytes(32).toString('base64url')}`;
}

export function hashSecret(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** Compares a presented secret with a stored SHA-256 hash in constant time. */
export function secretMatchesHash(presented: string, storedHash: string): boolean {
  const presentedHash = Buffer.from(hashSecret(presented), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return stored.length === presentedHash.length && timingSafeEqual(presentedHash, stored);
}
