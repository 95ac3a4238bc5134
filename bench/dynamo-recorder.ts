import { performance } from 'node:perf_hooks';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { db } from '../shared/db/client';

/** One DynamoDB command a handler sent: its document-client class, input, and when it ran. */
export interface RecordedCommand {
  commandClass: new (input: never) => unknown;
  input: Record<string, unknown>;
  /** Whether DynamoDB left keys or items unprocessed (the next batch call is a retry). */
  hasUnprocessed?: boolean;
  /** performance.now() when the caller handed the command to the client (before any wait for a socket). */
  startMs: number;
  /** performance.now() when the call settled (answered or failed); NaN while in flight. */
  endMs: number;
  /** The error's name when the call failed (a condition the code expects to fail, say). */
  errorName?: string;
  /** The capacity units the answer says the call consumed (only while setReturnConsumedCapacity is on). */
  capacityUnits?: number;
  /** The items the answer holds: a Query's Count, a BatchGetItem's responses. */
  itemCount?: number;
}

interface SendableClient {
  send(command: unknown, ...rest: unknown[]): Promise<unknown>;
}

let recording: RecordedCommand[] | undefined;
let returnConsumedCapacity = false;
let isInstalled = false;

/**
 * Wraps the service's own DynamoDB client (the one every repository uses) so the benchmark can
 * see which commands an API request sent and when each ran, and replay exactly those, in the same
 * overlap, through the same client as its floor.
 */
export function installRecorder(): void {
  if (isInstalled) return;
  isInstalled = true;
  const client = db as unknown as SendableClient;
  const send = client.send.bind(client);
  client.send = (command: unknown, ...rest: unknown[]) => {
    const typed = command as { constructor: RecordedCommand['commandClass']; input: Record<string, unknown> };
    const recorded: RecordedCommand = {
      commandClass: typed.constructor,
      input: typed.input,
      startMs: performance.now(),
      endMs: Number.NaN,
    };
    recording?.push(recorded);
    if (returnConsumedCapacity && typed.input.ReturnConsumedCapacity === undefined)
      typed.input.ReturnConsumedCapacity = 'TOTAL';
    return send(command, ...rest).then(
      (output) => {
        recorded.endMs = performance.now();
        const {
          UnprocessedKeys: keys,
          UnprocessedItems: items,
          ConsumedCapacity: consumed,
          Count: count,
          Responses: responses,
        } = (output ?? {}) as {
          UnprocessedKeys?: object;
          UnprocessedItems?: object;
          ConsumedCapacity?: { CapacityUnits?: number } | { CapacityUnits?: number }[];
          Count?: number;
          Responses?: unknown;
        };
        recorded.hasUnprocessed = [keys, items].some(
          (unprocessed) => unprocessed !== undefined && Object.keys(unprocessed).length > 0,
        );
        if (consumed !== undefined)
          recorded.capacityUnits = (Array.isArray(consumed) ? consumed : [consumed]).reduce(
            (sum, entry) => sum + (entry.CapacityUnits ?? 0),
            0,
          );
        if (typeof count === 'number') recorded.itemCount = count;
        else if (responses && typeof responses === 'object' && !Array.isArray(responses))
          recorded.itemCount = Object.values(responses as Record<string, unknown[]>).reduce(
            (sum, found) => sum + (Array.isArray(found) ? found.length : 0),
            0,
          );
        return output;
      },
      (error: unknown) => {
        recorded.endMs = performance.now();
        recorded.errorName = error instanceof Error ? error.name : 'Error';
        throw error;
      },
    );
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

/**
 * A plain document client on the same endpoint, for the benchmark's untimed work only: bulk loads
 * and the floor's copy of the items (its long BatchWriteItem runs would not fit the service client's
 * socket timeout on a loaded machine). No floor is timed through it.
 */
export function loaderClient(endpoint: string, region: string): DynamoDBDocumentClient {
  const base = new DynamoDBClient({
    endpoint,
    region,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  return DynamoDBDocumentClient.from(base, { marshallOptions: { removeUndefinedValues: true } });
}

/**
 * Where the floor's twin of the service's items lives: the service's own table, each partition key
 * behind this prefix. Not a second table: DynamoDB Local writes a table's stream records inside the
 * write call, and the same write cost more on a second table than on the service's (a create's
 * TransactWriteItems, same items, fresh ids, alternating: 18 ms on the service's table, 27 on a copy
 * of it, 17 on a copy without a stream), so a floor on another table measured the table, not the calls.
 */
export const floorKeyPrefix = 'FLOOR#';

/** The names an expression uses for the partition key: `pk` itself and any `#name` mapped to it. */
function partitionKeyNames(input: Record<string, unknown>): Set<string> {
  const names = new Set(['pk']);
  for (const [placeholder, name] of Object.entries((input.ExpressionAttributeNames ?? {}) as Record<string, unknown>))
    if (name === 'pk') names.add(placeholder);
  return names;
}

/** The value placeholders a key condition compares the partition key with (`pk = :queryPk`). */
function partitionKeyValues(input: Record<string, unknown>): Set<string> {
  const condition = typeof input.KeyConditionExpression === 'string' ? input.KeyConditionExpression : '';
  const names = partitionKeyNames(input);
  const values = new Set<string>();
  for (const match of condition.matchAll(/([#\w]+)\s*=\s*(:\w+)/g))
    if (names.has(match[1] ?? '')) values.add(match[2] ?? '');
  return values;
}

/**
 * A deep copy of a command input for the floor: every `pk` attribute (of a Key, an Item, a batch's
 * Keys, an ExclusiveStartKey) and every value a key condition compares `pk` with moved behind
 * `keyPrefix`, so the command reads and writes the floor's twin of the items the service's did.
 * Without a prefix, the same keys. ReturnConsumedCapacity is dropped (the cost section's, not the call's).
 */
export function toFloorInput(input: Record<string, unknown>, keyPrefix = ''): Record<string, unknown> {
  const pkValues = partitionKeyValues(input);
  const walk = (value: unknown, parentKey: string): unknown => {
    if (Array.isArray(value)) return value.map((entry) => walk(entry, ''));
    if (value === null || typeof value !== 'object' || value instanceof Uint8Array || value instanceof Set)
      return value;
    const copy: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      const isPartitionKey =
        typeof inner === 'string' &&
        ((key === 'pk' && parentKey !== 'ExpressionAttributeNames') ||
          (parentKey === 'ExpressionAttributeValues' && pkValues.has(key)));
      copy[key] = isPartitionKey ? `${keyPrefix}${inner}` : walk(inner, key);
    }
    return copy;
  };
  const copied = walk(input, '') as Record<string, unknown>;
  delete copied.ReturnConsumedCapacity;
  return copied;
}

/** An item moved into the floor's key space (its partition key behind the prefix). */
export const toFloorItem = (item: Record<string, unknown>, keyPrefix = floorKeyPrefix): Record<string, unknown> => ({
  ...item,
  pk: `${keyPrefix}${String(item.pk)}`,
});

/** Pairs [i, j] where command i had settled before command j was sent: the order the request imposed. */
export function precedencePairs(commands: readonly Pick<RecordedCommand, 'startMs' | 'endMs'>[]): [number, number][] {
  const pairs: [number, number][] = [];
  commands.forEach((before, i) => {
    commands.forEach((after, j) => {
      if (i !== j && before.endMs <= after.startMs) pairs.push([i, j]);
    });
  });
  return pairs;
}

/**
 * What each command of the floor waits for: the commands that had settled when the service sent it,
 * less those that another of them waited for already. Commands whose calls overlapped wait for none
 * of each other, so they are sent together, as the service sent them; a command sent after another
 * settled waits for it, as the service's code did. The floor sends each the moment its waits are
 * over, with none of the service's own work between: the least time these calls take in this shape.
 */
export function floorPlan(commands: readonly Pick<RecordedCommand, 'startMs' | 'endMs'>[]): number[][] {
  const isBefore = (i: number, j: number): boolean =>
    (commands[i]?.endMs ?? Number.NaN) <= (commands[j]?.startMs ?? Number.NaN);
  return commands.map((_command, j) => {
    const settled = commands.map((_other, i) => i).filter((i) => i !== j && isBefore(i, j));
    return settled.filter((i) => !settled.some((k) => k !== i && isBefore(i, k)));
  });
}

/** Recorded commands made ready for the floor: inputs pointed at the floor's items, and the plan of their waits. */
export interface FloorReplay {
  commands: readonly RecordedCommand[];
  waits: readonly number[][];
  /**
   * How long DynamoDB Local was left idle before the service's first call of the request (the
   * gateway's and the handler's work since the request was sent); 0 when not known.
   */
  idleMs: number;
}

/**
 * Without a key prefix the floor sends the very inputs recorded (reads, or writes whose state allows
 * them again). `requestBeganMs`: performance.now() when the API request was sent, for the idle time.
 */
export function prepareFloor(
  commands: readonly RecordedCommand[],
  keyPrefix?: string,
  requestBeganMs?: number,
): FloorReplay {
  if (commands.some((command) => Number.isNaN(command.endMs)))
    throw new Error('floor: a recorded command had not settled when the recording ended');
  return {
    commands: commands.map((command) => ({
      ...command,
      input: toFloorInput(command.input, keyPrefix),
    })),
    waits: floorPlan(commands),
    idleMs: requestBeganMs === undefined ? 0 : Math.max(0, (commands[0]?.startMs ?? requestBeganMs) - requestBeganMs),
  };
}

/**
 * The time of one floor replay, after leaving DynamoDB Local idle, untimed, as long as the service's
 * request did before its first call. Sent back to back instead, the same GetItem or Query met the
 * database still busy with the previous answer and took longer than the service's.
 */
export async function timeFloorReplay(floor: FloorReplay): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, floor.idleMs));
  const began = performance.now();
  await replayFloor(floor);
  return performance.now() - began;
}

/**
 * Sends a recorded request's commands again, through the service's own client (the `db` of
 * shared/db/client.ts: its socket pool, queue, timeouts and middleware), in the recorded overlap
 * (floorPlan): the floor of that API request. A command the service saw fail must fail the same way
 * here, and one that succeeded must succeed, or the floor is not the same work.
 */
export async function replayFloor(floor: FloorReplay): Promise<void> {
  const client = db as unknown as SendableClient;
  const settled: Promise<void>[] = [];
  const sendOne = async (command: RecordedCommand): Promise<void> => {
    try {
      await client.send(new command.commandClass(command.input as never));
    } catch (error) {
      const name = error instanceof Error ? error.name : 'Error';
      if (command.errorName === name) return;
      throw new Error(
        `floor: ${command.commandClass.name} failed with ${name} where the service's ${command.errorName ? `failed with ${command.errorName}` : 'succeeded'}`,
        { cause: error },
      );
    }
    if (command.errorName !== undefined)
      throw new Error(
        `floor: ${command.commandClass.name} succeeded where the service's failed with ${command.errorName}`,
      );
  };
  floor.commands.forEach((command, index) => {
    const waits = floor.waits[index] ?? [];
    settled.push(
      waits.length === 0
        ? sendOne(command)
        : Promise.all(waits.map((wait) => settled[wait])).then(() => sendOne(command)),
    );
  });
  await Promise.all(settled);
}
