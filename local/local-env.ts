import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  generateSessionSecret,
  generateSigningKey,
  generateWebhookSealKey,
  publicKeysOf,
  type SecretsDocument,
} from '../shared/oauth/key-generation';

/**
 * Fixed local defaults shared by `npm start`, the admin CLI and the tests. LOCAL_STATE_DIR moves
 * the state folder (secrets, demo data, the running-instance file), e.g. for a test's own copy.
 */
export const localDefaults = {
  tableName: 'hubspot-platform-local',
  dynamodbPort: 8000,
  port: 3000,
  stateDir: process.env.LOCAL_STATE_DIR
    ? path.resolve(process.env.LOCAL_STATE_DIR)
    : path.resolve(__dirname, '..', '.local'),
} as const;

/** What a running `npm start` tells the admin CLI: where it listens and which DynamoDB it uses. */
export interface RunningLocal {
  pid: number;
  baseUrl: string;
  endpoint: string;
  tableName: string;
  secretsFile: string;
  /** The demo's `export …` line, ready to paste or eval. */
  exports: string;
  /** Where the local webhook queue keeps its batches and dead letters (the admin CLI replays them). */
  webhookStateDir?: string;
}

export const runningLocalFile = (): string => path.join(localDefaults.stateDir, 'running.json');

export function writeRunningLocal(state: RunningLocal): void {
  mkdirSync(localDefaults.stateDir, { recursive: true });
  writeFileSync(runningLocalFile(), JSON.stringify(state, null, 2), { mode: 0o600 });
}

/** Removes the file only if it is still this process's (a later `npm start` may have replaced it). */
export function removeRunningLocal(pid: number): void {
  if (readRunningLocal()?.pid === pid) rmSync(runningLocalFile(), { force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The running `npm start`, or undefined when there is none (no file, or its process is gone). */
export function readRunningLocal(): RunningLocal | undefined {
  let state: RunningLocal;
  try {
    state = JSON.parse(readFileSync(runningLocalFile(), 'utf8')) as RunningLocal;
  } catch {
    return undefined;
  }
  return Number.isInteger(state.pid) && isAlive(state.pid) ? state : undefined;
}

/** `export NAME=value …` with each value quoted for a POSIX shell when it needs it. */
export function shellExports(variables: Record<string, string | number | undefined>): string {
  const quote = (value: string) => (/^[\w.:/@+-]+$/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`);
  const pairs = Object.entries(variables)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([name, value]) => `${name}=${quote(String(value))}`);
  return `export ${pairs.join(' ')}`;
}

/** The local stand-in for Secrets Manager: created once, kept beside the data (gitignored). */
export function ensureLocalSecrets(file: string): SecretsDocument {
  if (existsSync(file)) {
    const existing = JSON.parse(readFileSync(file, 'utf8')) as SecretsDocument;
    if (existing.webhookSealKey) return existing;
    // A state folder from before webhooks: add the seal key, keep everything else.
    const upgraded: SecretsDocument = { ...existing, webhookSealKey: generateWebhookSealKey() };
    writeFileSync(file, JSON.stringify(upgraded, null, 2), { mode: 0o600 });
    return upgraded;
  }
  mkdirSync(path.dirname(file), { recursive: true });
  const document: SecretsDocument = {
    signingKeys: [generateSigningKey('local-1')],
    sessionSecret: generateSessionSecret(),
    webhookSealKey: generateWebhookSealKey(),
  };
  writeFileSync(file, JSON.stringify(document, null, 2), { mode: 0o600 });
  return document;
}

/** Sets the variables shared/base/config.ts reads; call before importing any handler or repository. */
export function applyLocalEnvironment(options: {
  endpoint: string;
  tableName: string;
  secretsFile: string;
  logLevel?: string;
}): void {
  const secrets = ensureLocalSecrets(options.secretsFile);
  process.env.TABLE_NAME = options.tableName;
  process.env.DYNAMODB_ENDPOINT = options.endpoint;
  process.env.SECRETS_FILE = options.secretsFile;
  process.env.TOKEN_PUBLIC_KEYS = JSON.stringify(publicKeysOf(secrets));
  process.env.AWS_REGION ??= 'us-east-1';
  process.env.WEBHOOKS_ALLOW_LOOPBACK_HTTP = 'true';
  process.env.SANDBOX_CONTROLS = 'true';
  if (options.logLevel) process.env.LOG_LEVEL = options.logLevel;
}
