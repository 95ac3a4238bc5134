import { generateKeyPairSync, randomBytes } from 'node:crypto';

export interface SigningKeyMaterial {
  kid: string;
  /** base64 DER PKCS#8 */
  privateKey: string;
  /** base64 DER SPKI */
  publicKey: string;
}

/** Secret layout, in Secrets Manager and in the local secrets file: newest signing key last. */
export interface SecretsDocument {
  signingKeys?: SigningKeyMaterial[];
  sessionSecret?: string;
  /** Seals client secrets for webhook signatures (shared/webhooks/client-secret-seal.ts); any string of >= 32 random characters. */
  webhookSealKey?: string;
}

export function generateSigningKey(kid: string): SigningKeyMaterial {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    kid,
    privateKey: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
    publicKey: publicKey.export({ format: 'der', type: 'spki' }).toString('base64'),
  };
}

export function generateWebhookSealKey(): string {
  return randomBytes(32).toString('base64');
}

export function generateSessionSecret(): string {
  return randomBytes(32).toString('base64');
}

/** Key id to public key, the value of TOKEN_PUBLIC_KEYS for every verifying function. */
export function publicKeysOf(document: SecretsDocument): Record<string, string> {
  return Object.fromEntries((document.signingKeys ?? []).map((key) => [key.kid, key.publicKey]));
}
