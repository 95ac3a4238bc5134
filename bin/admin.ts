/**
 * Admin CLI: `npm run admin -- <command>`, printing JSON.
 *   app create --name N --redirect-uri URL [--redirect-uri URL2] --scopes s1,s2 [--optional-scopes s3]
 *   account create --domain D [--ten-secondly-limit N] [--search-per-second-limit M]
 *   account update --hub HUBID [--ten-secondly-limit N] [--search-per-second-limit M]
 *   user create --email E --password P --hub HUBID [--hub HUBID2]
 *
 * Where it writes: DYNAMODB_ENDPOINT if set; else a deployed table when TABLE_NAME is set (with the
 * usual AWS environment); else the table of a running `npm start` on 127.0.0.1:DYNAMODB_PORT.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { applyLocalEnvironment, localDefaults } from './local-env';

const usage = `usage:
  npm run admin -- app create --name N --redirect-uri URL [--redirect-uri URL2] --scopes s1,s2 [--optional-scopes s3]
  npm run admin -- account create --domain D [--ten-secondly-limit N] [--search-per-second-limit M]
  npm run admin -- account update --hub HUBID [--ten-secondly-limit N] [--search-per-second-limit M]
  (limits: requests per rolling 10 s per installed app, default 110; search requests per second, default 5; 0 = no limit)
  npm run admin -- user create --email E --password P --hub HUBID [--hub HUBID2]
(signing keys rotate with the stack: see README, Deploying)`;

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
      'ten-secondly-limit': { type: 'string' },
      'search-per-second-limit': { type: 'string' },
    },
    strict: true,
  });
  configureEnvironment();
  const { createAccount, createApp, createUser, updateAccount } = await import('../shared/admin/provisioning');
  const limit = (flag: 'ten-secondly-limit' | 'search-per-second-limit'): number | undefined => {
    const value = values[flag];
    if (value === undefined) return undefined;
    if (!/^\d{1,7}$/.test(value)) throw new Error(`--${flag} takes a whole number (0 = no limit)\n${usage}`);
    return Number(value);
  };
  const limits = { tenSecondlyLimit: limit('ten-secondly-limit'), searchPerSecondLimit: limit('search-per-second-limit') };
  if (area === 'app' && action === 'create') {
    return createApp({
      name: values.name ?? '', redirectUris: values['redirect-uri'] ?? [],
      scopes: list(values.scopes), optionalScopes: list(values['optional-scopes']),
    });
  }
  if (area === 'account' && action === 'create') return createAccount(values.domain ?? '', limits);
  if (area === 'account' && action === 'update') {
    const hubs = values.hub ?? [];
    if (hubs.length !== 1 || !/^\d+$/.test(hubs[0] ?? '')) throw new Error(`account update takes one numeric --hub\n${usage}`);
    return updateAccount(Number(hubs[0]), limits);
  }
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
