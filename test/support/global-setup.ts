import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureTable, startDynamoDbLocal, type RunningDynamoDb } from '../../local/dynamodb-local';
import { applyLocalEnvironment } from '../../local/local-env';
import { assertLocalDynamoDb } from './local-only';

declare global {
  // eslint-disable-next-line no-var
  var testDynamoDb: RunningDynamoDb | undefined;
}

/**
 * One real DynamoDB Local for the whole run (in memory, on a free loopback port). The
 * variables set here reach every test worker, which runs the gateway and handlers in-process; so
 * the run stops here, before any test file or table, unless they name a DynamoDB on this machine.
 */
export default async function globalSetup(): Promise<void> {
  const dynamo = await startDynamoDbLocal();
  globalThis.testDynamoDb = dynamo;
  const stateDir = mkdtempSync(path.join(tmpdir(), 'hubspot-slice-test-'));
  const tableName = 'hubspot-platform-test';
  applyLocalEnvironment({
    endpoint: dynamo.endpoint,
    tableName,
    secretsFile: path.join(stateDir, 'secrets.json'),
    logLevel: process.env.LOG_LEVEL ?? 'ERROR',
  });
  process.env.TEST_STATE_DIR = stateDir;
  try {
    assertLocalDynamoDb();
  } catch (error) {
    await dynamo.stop();
    throw error;
  }
  await ensureTable(dynamo.endpoint, tableName);
}
