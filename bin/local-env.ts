import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { generateSessionSecret, generateSigningKey, publicKeysOf, type SecretsDocument } from '../shared/oauth/key-generation';

/** Fixed local defaults shared by `npm start`, the admin CLI and the tests. */
export const localDefaults = {
  tableName: 'hubspot-platform-local',
  dynamodbPort: 8000,
  port: 3000,
  stateDir: path.resolve(__dirname, '..', '.local'),
} as const;

/** The local stand-in for Secrets Manager: created once, kept beside the data (gitignored). */
export function ensureLocalSecrets(file: string): SecretsDocument {
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as SecretsDocument;
  mkdirSync(path.dirname(file), { recursive: true });
  const document: SecretsDocument = { signingKeys: [generateSigningKey('local-1')], sessionSecret: generateSessionSecret() };
  writeFileSync(file, JSON.stringify(document, null, 2), { mode: 0o600 });
  return document;
}

/** Sets the variables shared/config.ts reads; call before importing any handler or repository. */
export function applyLocalEnvironment(options: { endpoint: string; tableName: string; secretsFile: string; logLevel?: string }): void {
  const secrets = ensureLocalSecrets(options.secretsFile);
  process.env.TABLE_NAME = options.tableName;
  process.env.DYNAMODB_ENDPOINT = options.endpoint;
  process.env.SECRETS_FILE = options.secretsFile;
  process.env.TOKEN_PUBLIC_KEYS = JSON.stringify(publicKeysOf(secrets));
  process.env.AWS_REGION ??= 'us-east-1';
  if (options.logLevel) process.env.LOG_LEVEL = options.logLevel;
}
