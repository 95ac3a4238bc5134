import { execFileSync } from 'node:child_process';
import { ensureTable, startDynamoDbLocal, type RunningDynamoDb } from '../../local/dynamodb-local';

/**
 * Imported first by a test file that reads the whole table with Scan: gives the file a DynamoDB
 * Local of its own (in memory, on a free loopback port), started before its first test and stopped
 * after its last, with the run's table name in it.
 *
 * Every other file shares the run's one DynamoDB Local and its one table, which by the end of a run
 * holds every file's items. A Scan of it reads 1 MB pages (about 4,400 items) that DynamoDB Local
 * builds whole before it answers: 0.3-0.8 s each on a quiet 2-core machine, past the client's 2 s
 * socket timeout (shared/db/client.ts) on a loaded one, where the other worker's calls waited
 * meanwhile (on CI the purge test and the bench's fairness reads timed out together). A second
 * table in the shared DynamoDB Local is worse: the two workers' writes, each to its own table, hold
 * each other up for 1 to 6 s at a time (calls timed in the client: both files failed). A process of its own shares nothing but the cores, and a Scan of
 * it proves the same thing: what is left is the file's doing.
 *
 * shared/base/config.ts reads DYNAMODB_ENDPOINT once per module registry, and jest gives each file
 * its own registry and its own copy of process.env: this module sets it when it is imported (so the
 * port is found synchronously), and must come before every import that reaches the config.
 */
const port = Number(
  execFileSync(process.execPath, [
    '-e',
    "const s = require('node:net').createServer().listen(0, '127.0.0.1', () => { process.stdout.write(String(s.address().port)); s.close(); });",
  ]).toString(),
);
const endpoint = `http://127.0.0.1:${port}`;
process.env.DYNAMODB_ENDPOINT = endpoint;

let dynamo: RunningDynamoDb | undefined;

beforeAll(async () => {
  // An import of the config before this module's would have read the shared DynamoDB Local's address.
  const { config } = await import('../../shared/base/config');
  if (config.dynamodbEndpoint !== endpoint)
    throw new Error(`own-dynamodb: the file reaches ${config.dynamodbEndpoint}: import this module before any other`);
  dynamo = await startDynamoDbLocal({ port });
  await ensureTable(endpoint, config.tableName);
}, 120_000);

afterAll(async () => {
  await dynamo?.stop();
});
