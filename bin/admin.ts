/**
 * Admin CLI: `npm run admin -- <command>`, printing JSON.
 *   app create --name N --redirect-uri URL [--redirect-uri URL2] --scopes s1,s2 [--optional-scopes s3]
 *   account create --domain D
 *   user create --email E --password P --hub HUBID [--hub HUBID2]
 *   keys rotate --secret-id ARN|NAME   (deployed: adds a new signing key to the Secrets Manager secret)
 *
 * Where it writes: DYNAMODB_ENDPOINT if set; else a deployed table when TABLE_NAME is set (with the
 * usual AWS environment); else the table of a running `npm start` on 127.0.0.1:DYNAMODB_PORT.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { applyLocalEnvironment, localDefaults } from './local-env';

const usage = `usage:
  npm run admin -- app create --name N --redirect-uri URL [--redirect-uri URL2] --scopes s1,s2 [--optional-scopes s3]
  npm run admin -- account create --domain D
  npm run admin -- user create --email E --password P --hub HUBID [--hub HUBID2]
  npm run admin -- keys rotate --secret-id ARN`;

function list(value: string | undefined): string[] {
  return (value ?? '').split(/[\s,]+/).filter((item) => item !== '');
}

function configureEnvironment(): void {
  const endpoint = process.env.DYNAMODB_ENDPOINT;
  if (endpoint || !process.env.TABLE_NAME) {
    applyLocalEnvironment({
      endpoint: endpoint ?? `http://127.0.0.1:${process.env.DYNAMODB_PORT ?? localDefaults.dynamodbPort}`,
      tableName: process.env.TABLE_NAME ?? localDefaults.tableName,
      secretsFile: process.env.SECRETS_FILE ?? path.join(localDefaults.stateDir, 'secrets.json'),
    });
  }
}

async function rotateKeys(secretId: string): Promise<unknown> {
  const { SecretsManagerClient, GetSecretValueCommand, PutSecretValueCommand } = await import('@aws-sdk/client-secrets-manager');
  const { generateSigningKey, publicKeysOf } = await import('../shared/oauth/key-generation');
  const client = new SecretsManagerClient({});
  const current = await client.send(new GetSecretValueCommand({ SecretId: secretId })).catch(() => undefined);
  let document: { signingKeys?: ReturnType<typeof generateSigningKey>[] } = {};
  try {
    document = current?.SecretString ? (JSON.parse(current.SecretString) as typeof document) : {};
  } catch {
    document = {};
  }
  const kid = `key-${new Date().toISOString().replace(/[-:.TZ]/g, '').slice(0, 14)}`;
  // Keep the previous keys so tokens signed with them verify until they expire (30 minutes).
  const signingKeys = [...(document.signingKeys ?? []).slice(-2), generateSigningKey(kid)];
  await client.send(new PutSecretValueCommand({ SecretId: secretId, SecretString: JSON.stringify({ ...document, signingKeys }) }));
  return { kid, tokenPublicKeys: publicKeysOf({ signingKeys }) };
}

export async function runAdmin(argv: string[]): Promise<unknown> {
  const [area, action, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      name: { type: 'string' },
      'redirect-uri': { type: 'string', multiple: true },
      scopes: { type: 'string' },
      'optional-scopes': { type: 'string' },
      domain: { type: 'string' },
      email: { type: 'string' },
      password: { type: 'string' },
      hub: { type: 'string', multiple: true },
      'secret-id': { type: 'string' },
    },
    strict: true,
  });
  if (area === 'keys' && action === 'rotate') {
    if (!values['secret-id']) throw new Error(`--secret-id is required\n${usage}`);
    return rotateKeys(values['secret-id']);
  }
  configureEnvironment();
  const { createAccount, createApp, createUser } = await import('../shared/admin/provisioning');
  if (area === 'app' && action === 'create') {
    return createApp({
      name: values.name ?? '', redirectUris: values['redirect-uri'] ?? [],
      scopes: list(values.scopes), optionalScopes: list(values['optional-scopes']),
    });
  }
  if (area === 'account' && action === 'create') return createAccount(values.domain ?? '');
  if (area === 'user' && action === 'create') {
    const hubs = (values.hub ?? []).flatMap(list);
    if (hubs.some((hub) => !/^\d+$/.test(hub))) throw new Error(`--hub takes a numeric hub id\n${usage}`);
    return createUser(values.email ?? '', values.password ?? '', hubs.map(Number));
  }
  throw new Error(usage);
}

if (require.main === module) {
  runAdmin(process.argv.slice(2)).then((result) => {
    console.log(JSON.stringify(result));
  }).catch((error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    const context = (error as { context?: unknown }).context;
    console.error(JSON.stringify({ status: 'error', message, ...(context ? { context } : {}) }));
    process.exit(1);
  });
}
