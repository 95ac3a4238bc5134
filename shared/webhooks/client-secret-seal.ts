import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { config } from '../base/config';
import { readSecretsDocument } from '../oauth/key-material';

/**
 * Webhook signatures are keyed by the app's client secret, which the table otherwise holds only as
 * a hash. So the app record also keeps the secret sealed (AES-256-GCM, the app id as associated
 * data) with a key that lives outside the table: the local secrets file, or a Secrets Manager
 * secret only the delivery function and the admin CLI read. A table dump alone reveals no secret.
 */
let sealKey: Promise<Buffer> | undefined;

function hasSealKeySource(): boolean {
  return Boolean(config.secretsJson || config.secretsFile || config.webhookSealKeySecretArn);
}

function loadSealKey(): Promise<Buffer> {
  sealKey ??= readSecretsDocument(config.webhookSealKeySecretArn)
    .then((document) => {
      if (!document.webhookSealKey || document.webhookSealKey.length < 32)
        throw new Error('the secrets hold no webhookSealKey of at least 32 characters');
      return createHash('sha256').update(document.webhookSealKey, 'utf8').digest();
    })
    .catch((error: unknown) => {
      sealKey = undefined;
      throw error;
    });
  return sealKey;
}

/** `v1.<iv>.<ciphertext>.<tag>` (base64url), or undefined where no seal key is configured (the app then gets no webhook signatures). */
export async function sealClientSecret(clientSecret: string, appId: number): Promise<string | undefined> {
  if (!hasSealKeySource()) return undefined;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', await loadSealKey(), iv);
  cipher.setAAD(Buffer.from(String(appId)));
  const sealed = Buffer.concat([cipher.update(clientSecret, 'utf8'), cipher.final()]);
  return ['v1', iv, sealed, cipher.getAuthTag()]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** The client secret; throws when the value was not sealed for this app with this key. */
export async function openClientSecret(sealed: string, appId: number): Promise<string> {
  const [version, iv, ciphertext, tag] = sealed.split('.');
  if (version !== 'v1' || iv === undefined || ciphertext === undefined || tag === undefined)
    throw new Error('unknown sealed secret format');
  const decipher = createDecipheriv('aes-256-gcm', await loadSealKey(), Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(String(appId)));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}
