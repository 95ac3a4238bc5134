import { readFile } from 'node:fs/promises';
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { config } from '../base/config';
import type { SecretsDocument } from './key-generation';

/** The secrets document: inline JSON (sam local), the local file, or the given Secrets Manager secret. */
export async function readSecretsDocument(secretArn: string | undefined): Promise<SecretsDocument> {
  if (config.secretsJson) return JSON.parse(config.secretsJson) as SecretsDocument;
  if (config.secretsFile) return JSON.parse(await readFile(config.secretsFile, 'utf8')) as SecretsDocument;
  if (!secretArn) throw new Error('no secrets source configured: set SECRETS_FILE or the secret ARN');
  // Imported by name, not with import(): a bundle then carries the client and this one command, where
  // import() of the package brings every command, paginator and the aggregated client (about 16 KiB more).
  const result = await new SecretsManagerClient({ region: config.region }).send(
    new GetSecretValueCommand({ SecretId: secretArn }),
  );
  if (!result.SecretString) throw new Error('signing secret has no string value');
  return JSON.parse(result.SecretString) as SecretsDocument;
}

let signingKey: Promise<{ kid: string; privateKey: KeyObject }> | undefined;
let sessionSecret: Promise<Buffer> | undefined;

/** The newest signing key; read once per container and only by the token function. */
export function loadSigningKey(): Promise<{ kid: string; privateKey: KeyObject }> {
  signingKey ??= readSecretsDocument(config.signingKeySecretArn)
    .then((document) => {
      // Sign only with a key the verifying functions already know: during a rotation the secret holds the
      // new key before every function's TOKEN_PUBLIC_KEYS lists it (this function's list is updated last).
      const published = Object.keys(config.tokenPublicKeys);
      const usable =
        published.length > 0
          ? document.signingKeys?.filter((key) => published.includes(key.kid))
          : document.signingKeys;
      const newest = usable?.at(-1);
      if (!newest) throw new Error('the signing secret holds no key listed in TOKEN_PUBLIC_KEYS');
      return {
        kid: newest.kid,
        privateKey: createPrivateKey({ key: Buffer.from(newest.privateKey, 'base64'), format: 'der', type: 'pkcs8' }),
      };
    })
    .catch((error: unknown) => {
      signingKey = undefined;
      throw error;
    });
  return signingKey;
}

export function loadSessionSecret(): Promise<Buffer> {
  sessionSecret ??= readSecretsDocument(config.sessionSecretArn)
    .then((document) => {
      if (!document.sessionSecret) throw new Error('the session secret is empty');
      return Buffer.from(document.sessionSecret, 'base64');
    })
    .catch((error: unknown) => {
      sessionSecret = undefined;
      throw error;
    });
  return sessionSecret;
}
