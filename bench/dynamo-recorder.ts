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
        const { UnprocessedKeys: keys, UnprocessedItems: items } = (output ?? {}) as {
          UnprocessedKeys?: object;
          UnprocessedItems?: object;
        };
        recorded.hasUnprocessed = [keys, items].some(
          (unprocessed) => unprocessed !== undefined && Object.keys(unprocessed).length > 0,
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
 * and the floor table's copy (its long BatchWriteItem runs would not fit the service client's
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

/** Recorded commands made ready for the floor: inputs pointed at the floor's table, and the plan of their waits. */
export interface FloorReplay {
  commands: readonly RecordedCommand[];
  waits: readonly number[][];
}

export function prepareFloor(
  commands: readonly RecordedCommand[],
  tables?: { fromTable: string; toTable: string },
): FloorReplay {
  if (commands.some((command) => Number.isNaN(command.endMs)))
    throw new Error('floor: a recorded command had not settled when the recording ended');
  return {
    commands: commands.map((command) => ({
      ...command,
      input: tables ? retarget(command.input, tables.fromTable, tables.toTable) : retarget(command.input, '', ''),
    })),
    waits: floorPlan(commands),
  };
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
