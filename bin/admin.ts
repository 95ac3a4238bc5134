/**
 * Admin CLI: `npm run admin -- <command>`, printing JSON.
 *   app create --name N --redirect-uri URL [--redirect-uri URL2] --scopes s1,s2 [--optional-scopes s3]
 *   account create --domain D
 *   user create --email E --password P --hub HUBID [--hub HUBID2]
 *   search backfill --hub HUBID [--hub HUBID2]   (search projection of companies written before it existed)
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
  npm run admin -- search backfill --hub HUBID [--hub HUBID2]
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
    },
    strict: true,
  });
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
  if (area === 'search' && action === 'backfill') {
    const hubs = (values.hub ?? []).flatMap(list);
    if (hubs.length === 0 || hubs.some((hub) => !/^\d+$/.test(hub))) throw new Error(`--hub takes a numeric hub id\n${usage}`);
    const { backfillSearchProjection } = await import('../shared/db/company-search');
    const results = [];
    for (const hub of hubs) results.push({ hubId: Number(hub), ...(await backfillSearchProjection(Number(hub))) });
    return results;
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
