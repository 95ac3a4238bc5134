import { randomUUID } from 'node:crypto';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { ensureTable, localClient } from '../../local/dynamodb-local';

/**
 * Imported first by a test file that reads the whole table with Scan: points the file at a table of
 * its own in the run's DynamoDB Local, made before its first test and deleted after its last.
 *
 * Every other file shares one table, which by the end of a run holds every file's items. A Scan of
 * it returns 1 MB pages (about 4,400 items) that DynamoDB Local builds whole before it sends a byte:
 * 0.3-0.8 s each on a quiet 2-core machine, past the client's 2 s socket timeout
 * (shared/db/client.ts) on a loaded one, where it also held up the other worker's calls (CI of
 * 2026-11-28: the purge test and the bench's fairness reads timed out together). A table of its
 * own holds only the file's items, and a Scan of it proves the same thing: what is left is the
 * file's doing.
 *
 * shared/base/config.ts reads TABLE_NAME once per module registry, and jest gives each file its
 * own registry and its own copy of process.env: this module must come before every import that
 * reaches the config.
 */
const endpoint = process.env.DYNAMODB_ENDPOINT;
if (!endpoint) throw new Error('own-table: DYNAMODB_ENDPOINT is set by test/support/global-setup.ts');

export const ownTableName = `hubspot-platform-test-${randomUUID().slice(0, 8)}`;
process.env.TABLE_NAME = ownTableName;

beforeAll(async () => {
  // An import of the config before this module's would have read the shared table's name.
  const { tableName } = await import('../../shared/db/client');
  if (tableName !== ownTableName)
    throw new Error(`own-table: the file reads table ${tableName}: import this module before any other`);
  await ensureTable(endpoint, ownTableName);
});

afterAll(async () => {
  const client = localClient(endpoint);
  try {
    await client.send(new DeleteTableCommand({ TableName: ownTableName }));
  } finally {
    client.destroy();
  }
});
