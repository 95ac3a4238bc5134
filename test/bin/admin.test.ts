import { companyObjectType, requireStoredObjectType } from '../../shared/objects/object-types';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { findFreePort } from '../../local/dynamodb-local';
import { findAccount } from '../../shared/db/accounts';
import { findAppByClientId } from '../../shared/db/apps';
import { findDeveloper, findDeveloperApiKey } from '../../shared/db/developers';
import { findUserByEmail } from '../../shared/db/users';
import { hashSecret, secretMatchesHash } from '../../shared/oauth/secrets';
import { verifyPassword } from '../../shared/oauth/passwords';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { archiveRecord } from '../../shared/records/archive-record';
import { createRecord } from '../../shared/records/create-record';
import { db, dynamoCallCounter, tableName } from '../../shared/db/client';
import {
  accountKey,
  orderIndexPartition,
  recordCountKey,
  searchKey,
  searchPartition,
  searchShardOf,
  searchShards,
} from '../../shared/db/keys';
import { companyKeys } from '../../shared/companies/company-keys';
import { searchRecords } from '../../shared/search/search-records';
import { provision, unique } from '../support/harness';

const run = promisify(execFile);
const root = path.resolve(__dirname, '..', '..');

/** Runs `npm run admin -- ...` as a user would, against the test run's DynamoDB Local. */
async function admin(...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  return adminIn(process.env, ...args);
}

async function adminIn(
  env: NodeJS.ProcessEnv,
  ...args: string[]
): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'bin/admin.ts', ...args],
      { cwd: root, env },
    );
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const failed = error as { stdout: string; stderr: string; code: number };
    return { stdout: failed.stdout, stderr: failed.stderr, code: failed.code };
  }
}

describe('admin CLI', () => {
  it('creates an app, prints its secret once and stores only its hash', async () => {
    const result = await admin(
      'app',
      'create',
      '--name',
      'CLI App',
      '--redirect-uri',
      'https://cli.example.com/cb',
      '--redirect-uri',
      'http://localhost:8080/cb',
      '--scopes',
      'oauth,crm.objects.companies.read',
      '--optional-scopes',
      'timeline',
    );

    expect(result.code).toBe(0);
    const printed = JSON.parse(result.stdout) as { appId: number; clientId: string; clientSecret: string };
    expect(Object.keys(printed).sort()).toEqual([
      'appId',
      'clientId',
      'clientSecret',
      'developerApiKey',
      'developerId',
    ]);
    const stored = await findAppByClientId(printed.clientId);
    expect(stored).toMatchObject({
      appId: printed.appId,
      redirectUris: ['https://cli.example.com/cb', 'http://localhost:8080/cb'],
      scopes: ['oauth', 'crm.objects.companies.read'],
      optionalScopes: ['timeline'],
    });
    expect(JSON.stringify(stored)).not.toContain(printed.clientSecret);
    expect(secretMatchesHash(printed.clientSecret, stored?.clientSecretHash ?? '')).toBe(true);
  });

  it('creates a developer account with the app, prints its API key once and stores only its hash', async () => {
    const first = await admin(
      'app',
      'create',
      '--name',
      'Dev App',
      '--redirect-uri',
      'https://dev.example.com/cb',
      '--scopes',
      'oauth,timeline',
    );
    const printed = JSON.parse(first.stdout) as { appId: number; developerId: number; developerApiKey: string };

    const second = await admin(
      'app',
      'create',
      '--name',
      'Dev App 2',
      '--redirect-uri',
      'https://dev.example.com/cb',
      '--scopes',
      'oauth',
      '--developer-id',
      String(printed.developerId),
    );
    const secondPrinted = JSON.parse(second.stdout) as Record<string, unknown>;
    const developer = await findDeveloper(printed.developerId);
    const key = await findDeveloperApiKey(hashSecret(printed.developerApiKey));

    expect(printed.developerApiKey).toMatch(/^na1-[A-Za-z0-9_-]{43}$/);
    expect(secretMatchesHash(printed.developerApiKey, developer?.apiKeyHash ?? '')).toBe(true);
    expect(JSON.stringify(developer)).not.toContain(printed.developerApiKey);
    expect(JSON.stringify(key)).not.toContain(printed.developerApiKey);
    // The second app joins the same developer account: no new key is printed, the existing key manages both.
    expect(second.code).toBe(0);
    expect(secondPrinted.developerId).toBe(printed.developerId);
    expect(secondPrinted).not.toHaveProperty('developerApiKey');
    expect(key?.appIds.sort()).toEqual([printed.appId, secondPrinted.appId as number].sort());
  });

  it('refuses --developer-id of a developer account that does not exist', async () => {
    const result = await admin(
      'app',
      'create',
      '--name',
      'Orphan',
      '--redirect-uri',
      'https://x.example/cb',
      '--scopes',
      'oauth',
      '--developer-id',
      '999999999',
    );

    expect(result.code).toBe(1);
    expect(JSON.parse(result.stderr)).toMatchObject({ status: 'error', context: { developerId: ['999999999'] } });
  });

  it('creates an account and a user of it with a scrypt password hash', async () => {
    const domain = `${unique('cli')}.example`;
    const email = `${unique('cli')}@example.com`;

    const account = JSON.parse((await admin('account', 'create', '--domain', domain)).stdout) as {
      hubId: number;
      domain: string;
    };
    const user = JSON.parse(
      (await admin('user', 'create', '--email', email, '--password', 'a long password', '--hub', String(account.hubId)))
        .stdout,
    ) as { userId: number; email: string };

    expect(account.domain).toBe(domain);
    expect(user.email).toBe(email);
    const stored = await findUserByEmail(email);
    expect(stored?.passwordHash).toMatch(/^scrypt\$/);
    expect(await verifyPassword('a long password', stored?.passwordHash ?? '')).toBe(true);
    expect(stored?.hubIds).toEqual([account.hubId]);
  });

  it("sets and updates an account's rate limits (0 = no limit), and refuses a bad value or an unknown account", async () => {
    const created = await admin(
      'account',
      'create',
      '--domain',
      `${unique('limits')}.example`,
      '--ten-secondly-limit',
      '0',
      '--search-per-second-limit',
      '9',
    );
    const account = JSON.parse(created.stdout) as {
      hubId: number;
      tenSecondlyLimit: number;
      searchPerSecondLimit: number;
    };

    const updated = await admin('account', 'update', '--hub', String(account.hubId), '--ten-secondly-limit', '50');
    const bad = await admin('account', 'update', '--hub', String(account.hubId), '--ten-secondly-limit', '-3');
    const unknown = await admin('account', 'update', '--hub', '99999999999', '--search-per-second-limit', '2');

    expect(account).toMatchObject({ tenSecondlyLimit: 0, searchPerSecondLimit: 9 });
    expect(JSON.parse(updated.stdout)).toMatchObject({
      hubId: account.hubId,
      tenSecondlyLimit: 50,
      searchPerSecondLimit: 9,
    });
    expect(await findAccount(account.hubId)).toMatchObject({ tenSecondlyLimit: 50, searchPerSecondLimit: 9 });
    expect(bad.code).toBe(1);
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stderr)).toMatchObject({ status: 'error', context: { hub: ['99999999999'] } });
  });

  it('refuses an unknown scope with a JSON error and exit code 1', async () => {
    const result = await admin(
      'app',
      'create',
      '--name',
      'Bad',
      '--redirect-uri',
      'https://x.example/cb',
      '--scopes',
      'oauth,not.a.scope',
    );

    expect(result.code).toBe(1);
    expect(JSON.parse(result.stderr)).toMatchObject({ status: 'error', context: { scopes: ['not.a.scope'] } });
  });

  it('refuses a user of an account that does not exist', async () => {
    const result = await admin(
      'user',
      'create',
      '--email',
      `${unique('x')}@example.com`,
      '--password',
      'long enough',
      '--hub',
      '999999999',
    );

    expect(result.code).toBe(1);
    expect(result.stderr).toContain('no account with hub id 999999999');
  });

  describe('finding the local DynamoDB', () => {
    let stateDir: string;
    /** A terminal with no DynamoDB settings, whose .local is a fresh folder. */
    let bare: NodeJS.ProcessEnv;

    beforeEach(() => {
      stateDir = mkdtempSync(path.join(tmpdir(), 'admin-state-'));
      bare = { ...process.env, LOCAL_STATE_DIR: stateDir };
      for (const name of ['DYNAMODB_ENDPOINT', 'DYNAMODB_PORT', 'TABLE_NAME', 'SECRETS_FILE']) delete bare[name];
    });
    afterEach(() => rmSync(stateDir, { recursive: true, force: true }));

    function writeRunning(pid: number): void {
      writeFileSync(
        path.join(stateDir, 'running.json'),
        JSON.stringify({
          pid,
          baseUrl: 'http://127.0.0.1:1',
          endpoint: process.env.DYNAMODB_ENDPOINT,
          tableName: process.env.TABLE_NAME,
          secretsFile: process.env.SECRETS_FILE,
          exports: 'export BASE=http://127.0.0.1:1 APP_ID=1000001',
        }),
      );
    }

    it('writes to the running npm start found through .local/running.json, whatever its DynamoDB port', async () => {
      writeRunning(process.pid);
      const domain = `${unique('found')}.example`;

      const result = await adminIn(bare, 'account', 'create', '--domain', domain);

      expect(result.code).toBe(0);
      const account = JSON.parse(result.stdout) as { hubId: number };
      expect(await findAccount(account.hubId)).toMatchObject({ domain });
      expect((await adminIn(bare, 'demo', 'env')).stdout).toBe('export BASE=http://127.0.0.1:1 APP_ID=1000001\n');
    });

    it('names the endpoint it tried, how it chose it and the fix when nothing answers', async () => {
      const port = await findFreePort();

      const result = await adminIn(
        { ...bare, DYNAMODB_PORT: String(port) },
        'account',
        'create',
        '--domain',
        'x.example',
      );

      expect(result.code).toBe(1);
      const { message } = JSON.parse(result.stderr) as { message: string };
      expect(message).toContain(`cannot reach DynamoDB at http://127.0.0.1:${port} (chosen by DYNAMODB_PORT)`);
      expect(message).toContain('DYNAMODB_ENDPOINT=http://host:port');
      expect(message).toContain('npm start');
      expect(message).not.toContain('ECONNREFUSED');
    });

    it('ignores a running.json whose process is gone, and says so', async () => {
      writeRunning(2 ** 22 + 12345);

      const demo = await adminIn(bare, 'demo', 'env');

      expect(demo.code).toBe(1);
      expect(JSON.parse(demo.stderr).message).toMatch(
        /no running npm start found \(.*running\.json is missing or its process is gone\)/,
      );
    });
  });

  it('backfills the search projection of companies written before it existed, once', async () => {
    const installation = await provision();
    const actor = { hubId: installation.hubId, appId: installation.appId, userId: installation.userId };
    const ids = [];
    for (const name of ['Old One', 'Old Two', 'Old Three'])
      ids.push((await createRecord(actor, companyObjectType, { properties: { name } })).id);
    // As data written before the projection existed: the records without their projection items.
    for (const id of ids.slice(0, 2))
      await db.send(new DeleteCommand({ TableName: tableName, Key: searchKey(companyKeys, installation.hubId, id) }));
    const before = await searchRecords(companyObjectType, installation.hubId, {}, undefined, false);

    const first = await admin('search', 'backfill', '--hub', String(installation.hubId));
    const second = await admin('search', 'backfill', '--hub', String(installation.hubId));
    const after = await searchRecords(companyObjectType, installation.hubId, {}, undefined, false);

    expect(before.total).toBe(1);
    expect([first, second].map(({ code, stderr }) => ({ code, stderr }))).toEqual([
      { code: 0, stderr: '' },
      { code: 0, stderr: '' },
    ]);
    expect(JSON.parse(first.stdout)).toMatchObject([
      { hubId: installation.hubId, companies: 3, written: 2, removed: 0 },
    ]);
    expect(JSON.parse(second.stdout)).toMatchObject([
      { hubId: installation.hubId, companies: 3, written: 0, removed: 0 },
    ]);
    expect(after.results.map((result) => result.id)).toEqual(ids);
  });

  it('puts the records of an account older than the ordered index in it, counts them, and then searches it', async () => {
    const installation = await provision();
    const actor = { hubId: installation.hubId, appId: installation.appId, userId: installation.userId };
    const contacts = requireStoredObjectType('contacts');
    const ids = [];
    for (const firstname of ['Ada', 'Grace', 'Barbara', 'Linus'])
      ids.push((await createRecord(actor, contacts, { properties: { firstname } })).id);
    await archiveRecord(contacts, installation.hubId, ids[3] ?? '');
    // As an account created before the index: no index items, no counters, not marked.
    const indexItems = [];
    for (const kind of ['c', 'm'] as const)
      for (let shard = 0; shard < searchShards; shard += 1)
        indexItems.push(
          ...((
            await db.send(
              new QueryCommand({
                TableName: tableName,
                KeyConditionExpression: 'pk = :pk',
                ExpressionAttributeValues: { ':pk': orderIndexPartition(contacts, installation.hubId, kind, shard) },
              }),
            )
          ).Items ?? []),
        );
    for (const item of indexItems)
      await db.send(new DeleteCommand({ TableName: tableName, Key: { pk: item.pk, sk: item.sk } }));
    for (let shard = 0; shard < searchShards; shard += 1)
      await db.send(
        new DeleteCommand({ TableName: tableName, Key: recordCountKey(contacts, installation.hubId, shard) }),
      );
    await db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: accountKey(installation.hubId),
        UpdateExpression: 'REMOVE isOrderIndexed',
      }),
    );
    const search = { sorts: [{ propertyName: 'lastmodifieddate', direction: 'DESCENDING' as const }], limit: 10 };
    const before = await searchRecords(contacts, installation.hubId, search);

    const backfill = await admin('search', 'backfill', '--hub', String(installation.hubId));
    dynamoCallCounter.reset();
    const after = await searchRecords(contacts, installation.hubId, search);
    const indexedCalls = dynamoCallCounter.callsApartFromRetries();
    const evaluated = await searchRecords(contacts, installation.hubId, search, undefined, false);

    expect(indexItems.length).toBe(6);
    // Before the backfill the account's searches read the projection: right, only slower.
    expect(before.results.map((result) => result.id)).toEqual(ids.slice(0, 3).reverse());
    expect(backfill.code).toBe(0);
    expect(JSON.parse(backfill.stdout)).toMatchObject([
      { hubId: installation.hubId, orderIndex: { contacts: { records: 3, written: 3 } }, isOrderIndexed: true },
    ]);
    expect(indexedCalls).toEqual({ BatchGetItemCommand: 2, QueryCommand: 16 });
    expect({ total: after.total, ids: after.results.map((result) => result.id) }).toEqual({
      total: evaluated.total,
      ids: evaluated.results.map((result) => result.id),
    });
    expect(after.total).toBe(3);
  });

  it('moves projection items left in another shard by an older shard count, and removes those of archived companies', async () => {
    const installation = await provision();
    const actor = { hubId: installation.hubId, appId: installation.appId, userId: installation.userId };
    const ids = [];
    for (const name of ['Home', 'Moved One', 'Moved Two', 'Archived'])
      ids.push((await createRecord(actor, companyObjectType, { properties: { name } })).id);
    const [, movedOne = '', movedTwo = '', archived = ''] = ids;
    // As an older layout left them: the item in a shard that is not its home now (for 4 shards, id % 4).
    const strayShardOf = (id: string) =>
      Number(id.slice(-3)) % 4 === searchShardOf(id)
        ? (searchShardOf(id) + 1) % searchShards
        : Number(id.slice(-3)) % 4;
    for (const id of [movedOne, movedTwo, archived]) {
      const item =
        (await db.send(new GetCommand({ TableName: tableName, Key: searchKey(companyKeys, installation.hubId, id) })))
          .Item ?? {};
      await db.send(new DeleteCommand({ TableName: tableName, Key: searchKey(companyKeys, installation.hubId, id) }));
      await db.send(
        new PutCommand({
          TableName: tableName,
          Item: { ...item, pk: searchPartition(companyKeys, installation.hubId, strayShardOf(id)) },
        }),
      );
    }
    // Archived under the new layout: its home item is deleted, the stray stays until the backfill.
    await archiveRecord(companyObjectType, installation.hubId, archived);
    const before = await searchRecords(companyObjectType, installation.hubId, {}, undefined, false);

    const first = await admin('search', 'backfill', '--hub', String(installation.hubId));
    const second = await admin('search', 'backfill', '--hub', String(installation.hubId));
    const after = await searchRecords(companyObjectType, installation.hubId, {}, undefined, false);

    // Strays are skipped, never shown: before the backfill the search misses the moved ones but never shows the archived one.
    expect(before.results.map((result) => result.id)).toEqual(ids.slice(0, 1));
    expect([first, second].map(({ code, stderr }) => ({ code, stderr }))).toEqual([
      { code: 0, stderr: '' },
      { code: 0, stderr: '' },
    ]);
    expect(JSON.parse(first.stdout)).toMatchObject([
      { hubId: installation.hubId, companies: 3, written: 2, removed: 3 },
    ]);
    expect(JSON.parse(second.stdout)).toMatchObject([
      { hubId: installation.hubId, companies: 3, written: 0, removed: 0 },
    ]);
    expect({ total: after.total, ids: after.results.map((result) => result.id) }).toEqual({
      total: 3,
      ids: ids.slice(0, 3),
    });
  });
});
