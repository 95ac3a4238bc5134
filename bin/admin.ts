import { companyObjectType } from '../shared/objects/object-types';
/**
 * Admin CLI: `npm run admin -- <command>`, printing JSON.
 *   app create --name N --redirect-uri URL [--redirect-uri URL2] --scopes s1,s2 [--optional-scopes s3] [--developer-id D]
 *     (without --developer-id it creates a developer account that owns the app and prints its developerApiKey once)
 *   account create --domain D [--ten-secondly-limit N] [--search-per-second-limit M]
 *   account update --hub HUBID [--ten-secondly-limit N] [--search-per-second-limit M]
 *   account write-validation --hub HUBID --object-type T [--rules JSON]
 *     (the account's write validation of the type: the rules its 2026-09 writes meet, docs/versions.md)
 *   user create --email E --password P --hub HUBID [--hub HUBID2] [--first-name F] [--last-name L]
 *     (the user is an owner of each account: GET /crm/v3/owners)
 *   demo env       (the `export …` line of the running `npm start`'s demo, for eval)
 *   search backfill --hub HUBID [--hub HUBID2]   (search projection of companies written before it existed, or moved by a shard-count change; the ordered index of every type)
 *   test-account create --developer-id D [--name N]   (a test account of that developer account: docs/testing-your-integration.md)
 *   test-account list --developer-id D
 *   test-account reset --developer-id D --hub HUBID   (its CRM data goes; installs, owners and webhook settings stay)
 *   test-account delete --developer-id D --hub HUBID
 *   test-account write-validation --developer-id D --hub HUBID --object-type T [--rules JSON]
 *     (prints the type's write validation; with --rules, sets it first: the control's body, docs/versions.md)
 *   webhooks replay-dead-letters   (every dead-lettered webhook batch back to the queue, as attempt 0;
 *     deployed with WEBHOOK_QUEUE_URL and WEBHOOK_DEAD_LETTER_QUEUE_URL set, else the running npm start's queue)
 *
 * Where it writes: DYNAMODB_ENDPOINT if set; else a deployed table when TABLE_NAME is set (with the
 * usual AWS environment); else the table of the running `npm start` (found through the file it
 * writes, .local/running.json); else 127.0.0.1:DYNAMODB_PORT (default 8000).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { WriteValidationInput } from '../shared/records/write-validation-settings';
import { applyLocalEnvironment, localDefaults, readRunningLocal, runningLocalFile } from '../local/local-env';

const usage = `usage:
  npm run admin -- app create --name N --redirect-uri URL [--redirect-uri URL2] --scopes s1,s2 [--optional-scopes s3] [--developer-id D]
  npm run admin -- account create --domain D [--ten-secondly-limit N] [--search-per-second-limit M]
  npm run admin -- account update --hub HUBID [--ten-secondly-limit N] [--search-per-second-limit M]
  npm run -s admin -- account write-validation --hub HUBID --object-type T [--rules JSON]
  (limits: requests per rolling 10 s per installed app, default 110; search requests per second, default 5; 0 = no limit)
  npm run admin -- user create --email E --password P --hub HUBID [--hub HUBID2] [--first-name F] [--last-name L]
  npm run -s admin -- demo env
  npm run -s admin -- search backfill --hub HUBID [--hub HUBID2]
  npm run -s admin -- webhooks replay-dead-letters
  npm run -s admin -- test-account create --developer-id D [--name N]
  npm run -s admin -- test-account list --developer-id D
  npm run -s admin -- test-account reset|delete --developer-id D --hub HUBID
  npm run -s admin -- test-account write-validation --developer-id D --hub HUBID --object-type T [--rules JSON]
(signing keys rotate with the stack: see docs/deploying.md)`;

function list(value: string | undefined): string[] {
  return (value ?? '').split(/[\s,]+/).filter((item) => item !== '');
}

/** A local DynamoDB the CLI writes to, and how it was chosen (for the error when it is not there). */
interface LocalTarget {
  endpoint: string;
  chosenBy: string;
}

function configureEnvironment(): LocalTarget | undefined {
  const endpoint = process.env.DYNAMODB_ENDPOINT;
  if (!endpoint && process.env.TABLE_NAME) return undefined;
  const running = endpoint || process.env.DYNAMODB_PORT ? undefined : readRunningLocal();
  const target: LocalTarget = endpoint
    ? { endpoint, chosenBy: 'DYNAMODB_ENDPOINT' }
    : running
      ? { endpoint: running.endpoint, chosenBy: `the running npm start (pid ${running.pid}, ${runningLocalFile()})` }
      : {
          endpoint: `http://127.0.0.1:${process.env.DYNAMODB_PORT ?? localDefaults.dynamodbPort}`,
          chosenBy: process.env.DYNAMODB_PORT
            ? 'DYNAMODB_PORT'
            : `the default port (no running npm start found: ${runningLocalFile()} is missing or stale)`,
        };
  applyLocalEnvironment({
    endpoint: target.endpoint,
    tableName: process.env.TABLE_NAME ?? running?.tableName ?? localDefaults.tableName,
    secretsFile: process.env.SECRETS_FILE ?? running?.secretsFile ?? path.join(localDefaults.stateDir, 'secrets.json'),
  });
  return target;
}

/** True for the errors Node and the AWS SDK give when nothing answers at the endpoint. */
function isUnreachable(error: unknown): boolean {
  const codes = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENOTFOUND', 'ETIMEDOUT']);
  for (let current: unknown = error, depth = 0; current && depth < 5; depth += 1) {
    const { code, errors, cause } = current as { code?: unknown; errors?: unknown; cause?: unknown };
    if (typeof code === 'string' && codes.has(code)) return true;
    if (Array.isArray(errors) && errors.some((inner) => isUnreachable(inner))) return true;
    current = cause;
  }
  return false;
}

function unreachableError(target: LocalTarget): Error {
  const running = readRunningLocal();
  const hint =
    running && running.endpoint !== target.endpoint ? `The running npm start uses ${running.endpoint}. ` : '';
  return new Error(
    `cannot reach DynamoDB at ${target.endpoint} (chosen by ${target.chosenBy}). ${hint}` +
      'Start it with `npm start` (the CLI then finds it by itself), or point the CLI at yours with ' +
      'DYNAMODB_PORT=<port> or DYNAMODB_ENDPOINT=http://host:port (npm start prints its DynamoDB endpoint); ' +
      'for a deployed table set TABLE_NAME and leave DYNAMODB_ENDPOINT unset.',
  );
}

function demoExports(): string {
  const running = readRunningLocal();
  if (!running)
    throw new Error(
      `no running npm start found (${runningLocalFile()} is missing or its process is gone): start it first with \`npm start\``,
    );
  return running.exports;
}

const options = {
  name: { type: 'string' },
  'redirect-uri': { type: 'string', multiple: true },
  scopes: { type: 'string' },
  'optional-scopes': { type: 'string' },
  'developer-id': { type: 'string' },
  domain: { type: 'string' },
  email: { type: 'string' },
  password: { type: 'string' },
  'first-name': { type: 'string' },
  'last-name': { type: 'string' },
  hub: { type: 'string', multiple: true },
  'ten-secondly-limit': { type: 'string' },
  'search-per-second-limit': { type: 'string' },
  'object-type': { type: 'string' },
  rules: { type: 'string' },
} as const;

type ParsedOptions = ReturnType<typeof parseArgs<{ options: typeof options; strict: true }>>['values'];

export async function runAdmin(argv: string[]): Promise<unknown> {
  const [area, action, ...rest] = argv;
  const { values } = parseArgs({ args: rest, options, strict: true });
  if (area === 'demo' && action === 'env') return demoExports();
  const target = configureEnvironment();
  try {
    return await provision(area, action, values);
  } catch (error) {
    throw target && isUnreachable(error) ? unreachableError(target) : error;
  }
}

/** The sandbox controls' test-account commands, as the developer account (the HTTP API takes its key instead). */
async function testAccountCommand(action: string | undefined, values: ParsedOptions): Promise<unknown> {
  const developerId = values['developer-id'] ?? '';
  if (!/^\d{1,15}$/.test(developerId)) throw new Error(`test-account takes a numeric --developer-id\n${usage}`);
  const developer = { developerId: Number(developerId), appIds: [] };
  const { createTestAccount, deleteTestAccount, listDeveloperTestAccounts, resetTestAccount } = await import(
    '../shared/sandbox/test-accounts'
  );
  if (action === 'create') return createTestAccount(developer, { name: values.name });
  if (action === 'list') return listDeveloperTestAccounts(developer);
  const hubs = values.hub ?? [];
  const objectType = values['object-type'];
  if (action === 'write-validation' && hubs.length === 1 && /^\d+$/.test(hubs[0] ?? '') && objectType) {
    const { getWriteValidation, setWriteValidation } = await import('../shared/sandbox/write-validation');
    const hub = hubs[0] ?? '';
    return writeValidationCommand(
      values.rules,
      () => getWriteValidation(developer, hub, objectType),
      (input) => setWriteValidation(developer, hub, objectType, input),
    );
  }
  if ((action === 'reset' || action === 'delete') && hubs.length === 1 && /^\d+$/.test(hubs[0] ?? '')) {
    const hub = hubs[0] ?? '';
    // No function timeout here: the whole account in one run.
    if (action === 'reset') await resetTestAccount(developer, hub, Number.POSITIVE_INFINITY);
    else await deleteTestAccount(developer, hub, Number.POSITIVE_INFINITY);
    return { hubId: Number(hub), [action === 'reset' ? 'reset' : 'deleted']: true };
  }
  throw new Error(`unknown test-account command\n${usage}`);
}

/**
 * A write validation of a type (a test account's as its developer, or any account's), set first
 * from --rules: the control's JSON body, checked by its schema.
 */
async function writeValidationCommand<V>(
  rules: string | undefined,
  get: () => Promise<V>,
  set: (input: WriteValidationInput) => Promise<V>,
): Promise<V> {
  if (rules === undefined) return get();
  let body: unknown;
  try {
    body = JSON.parse(rules);
  } catch {
    throw new Error(`--rules takes the control's JSON body, e.g. '{"requiredOnCreate":["phone"]}'\n${usage}`);
  }
  const { compileValidator } = await import('../shared/http/validation');
  const { writeValidationBody } = await import('../functions/sandbox/sandbox.schema');
  compileValidator(writeValidationBody, 'body')(body);
  return set(body as WriteValidationInput);
}

async function provision(
  area: string | undefined,
  action: string | undefined,
  values: ParsedOptions,
): Promise<unknown> {
  const { createAccount, createApp, createUser, updateAccount } = await import('../shared/admin/provisioning');
  const limit = (flag: 'ten-secondly-limit' | 'search-per-second-limit'): number | undefined => {
    const value = values[flag];
    if (value === undefined) return undefined;
    if (!/^\d{1,7}$/.test(value)) throw new Error(`--${flag} takes a whole number (0 = no limit)\n${usage}`);
    return Number(value);
  };
  const limits = {
    tenSecondlyLimit: limit('ten-secondly-limit'),
    searchPerSecondLimit: limit('search-per-second-limit'),
  };
  if (area === 'app' && action === 'create') {
    const developerId = values['developer-id'];
    if (developerId !== undefined && !/^\d{1,15}$/.test(developerId))
      throw new Error(`--developer-id takes a numeric developer account id\n${usage}`);
    return createApp({
      name: values.name ?? '',
      redirectUris: values['redirect-uri'] ?? [],
      scopes: list(values.scopes),
      optionalScopes: list(values['optional-scopes']),
      ...(developerId === undefined ? {} : { developerId: Number(developerId) }),
    });
  }
  if (area === 'account' && action === 'create') return createAccount(values.domain ?? '', limits);
  if (area === 'account' && action === 'update') {
    const hubs = values.hub ?? [];
    if (hubs.length !== 1 || !/^\d+$/.test(hubs[0] ?? ''))
      throw new Error(`account update takes one numeric --hub\n${usage}`);
    return updateAccount(Number(hubs[0]), limits);
  }
  if (area === 'account' && action === 'write-validation') {
    const hubs = values.hub ?? [];
    const objectType = values['object-type'];
    if (hubs.length !== 1 || !/^\d{1,15}$/.test(hubs[0] ?? '') || !objectType)
      throw new Error(`account write-validation takes one numeric --hub and --object-type\n${usage}`);
    const hubId = Number(hubs[0]);
    const { findAccount } = await import('../shared/db/accounts');
    if (!(await findAccount(hubId))) throw new Error(`no account with hub id ${hubId}`);
    const { getAccountWriteValidation, setAccountWriteValidation } = await import(
      '../shared/records/write-validation-settings'
    );
    return writeValidationCommand(
      values.rules,
      () => getAccountWriteValidation(hubId, objectType),
      (input) => setAccountWriteValidation(hubId, objectType, input),
    );
  }
  if (area === 'user' && action === 'create') {
    const hubs = (values.hub ?? []).flatMap(list);
    if (hubs.some((hub) => !/^\d+$/.test(hub))) throw new Error(`--hub takes a numeric hub id\n${usage}`);
    return createUser(values.email ?? '', values.password ?? '', hubs.map(Number), {
      firstName: values['first-name'],
      lastName: values['last-name'],
    });
  }
  if (area === 'test-account') return testAccountCommand(action, values);
  if (area === 'webhooks' && action === 'replay-dead-letters') {
    const { replayDeadLetters } = await import('../shared/webhooks/delivery-queue');
    return { replayed: await replayDeadLetters(readRunningLocal()?.webhookStateDir) };
  }
  if (area === 'search' && action === 'backfill') {
    const hubs = (values.hub ?? []).flatMap(list);
    if (hubs.length === 0 || hubs.some((hub) => !/^\d+$/.test(hub)))
      throw new Error(`--hub takes a numeric hub id\n${usage}`);
    const { backfillSearchProjection } = await import('../shared/db/search-projection');
    const { backfillOrderIndex } = await import('../shared/db/order-index');
    const { markOrderIndexed } = await import('../shared/db/accounts');
    const { listObjectSchemas } = await import('../shared/db/object-schemas');
    const { typeOfSchema } = await import('../shared/objects/account-object-types');
    const { storedObjectTypes } = await import('../shared/objects/object-types');
    const { searchFormsOf } = await import('../shared/records/search-forms');
    const results = [];
    for (const hub of hubs) {
      const hubId = Number(hub);
      const projection = await backfillSearchProjection(companyObjectType, hubId, (record) =>
        searchFormsOf(companyObjectType, record),
      );
      // The ordered index of every type the account stores, its custom types included; then its searches read it.
      const custom = (await listObjectSchemas(hubId)).map((schema) => typeOfSchema(hubId, schema));
      const orderIndex: Record<string, { records: number; written: number }> = {};
      for (const type of [...storedObjectTypes, ...custom])
        orderIndex[type.name] = await backfillOrderIndex(type, hubId, (record) => searchFormsOf(type, record));
      const isMarked = await markOrderIndexed(hubId);
      results.push({ hubId, ...projection, orderIndex, isOrderIndexed: isMarked });
    }
    return results;
  }
  throw new Error(usage);
}

if (require.main === module) {
  runAdmin(process.argv.slice(2))
    .then((result) => {
      console.log(typeof result === 'string' ? result : JSON.stringify(result));
    })
    .catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      const context = (error as { context?: unknown }).context;
      console.error(JSON.stringify({ status: 'error', message, ...(context ? { context } : {}) }));
      process.exit(1);
    });
}
