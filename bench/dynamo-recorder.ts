import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { db } from '../shared/db/client';

/** One DynamoDB command a handler sent: its document-client class and input. */
export interface RecordedCommand {
  commandClass: new (input: never) => unknown;
  input: Record<string, unknown>;
  /** Whether DynamoDB left keys or items unprocessed (the next batch call is a retry). */
  hasUnprocessed?: boolean;
}

interface SendableClient {
  send(command: unknown, ...rest: unknown[]): Promise<unknown>;
}

let recording: RecordedCommand[] | undefined;
let returnConsumedCapacity = false;
let isInstalled = false;

/**
 * Wraps the service's own DynamoDB client (the one every repository uses) so the benchmark can
 * see which commands an API request sent, and replay exactly those as its floor.
 */
export function installRecorder(): void {
  if (isInstalled) return;
  isInstalled = true;
  const client = db as unknown as SendableClient;
  const send = client.send.bind(client);
  client.send = (command: unknown, ...rest: unknown[]) => {
    const typed = command as { constructor: RecordedCommand['commandClass']; input: Record<string, unknown> };
    const recorded: RecordedCommand = { commandClass: typed.constructor, input: typed.input };
    recording?.push(recorded);
    if (returnConsumedCapacity && typed.input.ReturnConsumedCapacity === undefined)
      typed.input.ReturnConsumedCapacity = 'TOTAL';
    return send(command, ...rest).then((output) => {
      const { UnprocessedKeys: keys, UnprocessedItems: items } = (output ?? {}) as {
        UnprocessedKeys?: object;
        UnprocessedItems?: object;
      };
      recorded.hasUnprocessed = [keys, items].some(
        (unprocessed) => unprocessed !== undefined && Object.keys(unprocessed).length > 0,
      );
      return output;
    });
  };
}

/** Batch calls that only retried what the previous batch call left unprocessed. */
export function countUnprocessedRetries(commands: readonly RecordedCommand[]): number {
  return commands.filter((_command, index) => index > 0 && commands[index - 1]?.hasUnprocessed === true).length;
}

/** Runs fn and returns the commands the service sent meanwhile (fn must not overlap other requests). */
export async function recordCommands<T>(fn: () => Promise<T>): Promise<{ result: T; commands: RecordedCommand[] }> {
  const commands: RecordedCommand[] = [];
  recording = commands;
  try {
    return { result: await fn(), commands };
  } finally {
    recording = undefined;
  }
}

/** Asks DynamoDB for the consumed capacity of every call (cost measurement only). */
export function setReturnConsumedCapacity(isOn: boolean): void {
  returnConsumedCapacity = isOn;
}

/** A plain document client on the same endpoint: what the floor sends its commands through. */
export function floorClient(endpoint: string, region: string): DynamoDBDocumentClient {
  const base = new DynamoDBClient({
    endpoint,
    region,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  return DynamoDBDocumentClient.from(base, { marshallOptions: { removeUndefinedValues: true } });
}

/** A deep copy of a command input with every reference to one table pointed at another. */
export function retarget(input: Record<string, unknown>, fromTable: string, toTable: string): Record<string, unknown> {
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (value === null || typeof value !== 'object' || value instanceof Uint8Array || value instanceof Set)
      return value;
    const copy: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      const name = key === fromTable ? toTable : key;
      copy[name] = key === 'TableName' && inner === fromTable ? toTable : walk(inner);
    }
    return copy;
  };
  const copied = walk(input) as Record<string, unknown>;
  delete copied.ReturnConsumedCapacity;
  return copied;
}

/** Sends recorded commands in order, as a handler would have: the floor of one API request. */
export async function replay(client: DynamoDBDocumentClient, commands: readonly RecordedCommand[]): Promise<void> {
  for (const { commandClass, input } of commands) {
    await (client as unknown as SendableClient).send(new commandClass(input as never));
  }
}
