import { AsyncLocalStorage } from 'node:async_hooks';
import { randomInt } from 'node:crypto';
import { DeleteCommand, PutCommand, UpdateCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { itemBytes, maxBatchWriteRequests, type WriteRequest } from './item';
import { WriteHeldError } from './repository-errors';
import { writeHoldKey, writeHoldPrefix, writeHoldShards } from './keys';

/**
 * The write guard of test accounts. A reset or delete of a test account first puts its write hold
 * (keys.ts writeHoldKey, every shard), then purges. Every write made for a caller of that account
 * (a request with one of its access tokens, the fixtures and installs controls) runs inside
 * withWriteGuard(hubId), and the data-access core (core.ts) adds to each of its writes a
 * ConditionCheck that one hold shard does not exist: a transaction gets one more item, a single
 * conditional write or a batch write is sent as a transaction with it. So no write of the account
 * commits between the hold and the end of the purge, and a purge removes each record's items
 * together: a write that committed before the hold left all of its items for the purge to find.
 * A write that meets the hold writes nothing and throws WriteHeldError. Writes outside the guard
 * (standard accounts, the stream's consumers, the sandbox controls' own items) pay nothing.
 */

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

export type WriteHoldMode = WriteHeldError['mode'];

/**
 * A write guard in force: the account, and what the core does to its writes. The core reads it from
 * the running guard and holds none of it itself, so a bundle that never opens a guard holds none of it.
 */
export interface WriteGuard {
  hubId: number;
  /** The ConditionCheck that the account holds no write hold, on one shard chosen at random. */
  holdCheck(tableName: string): TransactItem;
  /** The error of a write that met the hold, from the failed check's item. */
  heldError(holdItem: Record<string, unknown> | undefined): WriteHeldError;
  /**
   * A conditional write as the one write of a transaction (which then carries the hold's check);
   * undefined for a write that asks for the item it wrote (ReturnValues), which a transaction cannot
   * return: those few (counters, claims of the caller's own items) are sent as they are.
   */
  transactItemOf(command: PutCommand | UpdateCommand | DeleteCommand): TransactItem | undefined;
  /** Batch write requests as the transactions that write them: runs of at most 25, fewer when they are large. */
  transactionsOf(tableName: string, requests: readonly WriteRequest[]): TransactItem[][];
}

const guards = new AsyncLocalStorage<WriteGuard>();

/** Runs `work` with every write it makes through the core guarded by the account's write hold. */
export function withWriteGuard<T>(hubId: number, work: () => T): T {
  return guards.run(
    {
      hubId,
      holdCheck: (tableName) => writeHoldCheck(tableName, hubId),
      heldError: (holdItem) => new WriteHeldError(hubId, holdModeOf(holdItem)),
      transactItemOf,
      transactionsOf,
    },
    work,
  );
}

/** The write guard of the writes made here, if any. */
export function runningWriteGuard(): WriteGuard | undefined {
  return guards.getStore();
}

/** The ConditionCheck that the account holds no write hold, on one shard chosen at random. */
function writeHoldCheck(tableName: string, hubId: number): TransactItem {
  return {
    ConditionCheck: {
      TableName: tableName,
      Key: writeHoldKey(hubId, randomInt(writeHoldShards)),
      ConditionExpression: 'attribute_not_exists(pk)',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

/** The mode of a hold item, as read or as a failed condition returns it (wire format). */
export function holdModeOf(item: Record<string, unknown> | undefined): WriteHoldMode {
  const raw = item?.mode;
  const mode = typeof raw === 'string' ? raw : (raw as { S?: unknown } | undefined)?.S;
  return mode === 'delete' ? 'delete' : 'reset';
}

/** The fields of a conditional write that its transaction item takes as they are, when present. */
const conditionFields = ['ConditionExpression', 'ExpressionAttributeNames', 'ExpressionAttributeValues'] as const;

function transactItemOf(command: PutCommand | UpdateCommand | DeleteCommand): TransactItem | undefined {
  const input = command.input as Record<string, unknown>;
  if (input.ReturnValues !== undefined && input.ReturnValues !== 'NONE') return undefined;
  const common: Record<string, unknown> = { TableName: input.TableName };
  for (const field of conditionFields) if (input[field]) common[field] = input[field];
  if (input.ReturnValuesOnConditionCheckFailure === 'ALL_OLD') common.ReturnValuesOnConditionCheckFailure = 'ALL_OLD';
  if (command instanceof PutCommand) return { Put: { ...common, Item: input.Item } } as TransactItem;
  if (command instanceof UpdateCommand)
    return { Update: { ...common, Key: input.Key, UpdateExpression: input.UpdateExpression } } as TransactItem;
  if (command instanceof DeleteCommand) return { Delete: { ...common, Key: input.Key } } as TransactItem;
  return undefined;
}

/** DynamoDB's limit on the size of one TransactWriteItems (4 MB), with room for its keys and the hold's check. */
const maxTransactionBytes = 3_500_000;

function transactionsOf(tableName: string, requests: readonly WriteRequest[]): TransactItem[][] {
  const out: WriteRequest[][] = [];
  let current: WriteRequest[] = [];
  let bytes = 0;
  for (const request of requests) {
    const size = 'PutRequest' in request ? itemBytes(request.PutRequest.Item) : itemBytes(request.DeleteRequest.Key);
    if (current.length > 0 && (current.length === maxBatchWriteRequests || bytes + size > maxTransactionBytes)) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(request);
    bytes += size;
  }
  if (current.length > 0) out.push(current);
  return out.map((chunk) =>
    chunk.map((request) =>
      'PutRequest' in request
        ? { Put: { TableName: tableName, Item: request.PutRequest.Item } }
        : { Delete: { TableName: tableName, Key: request.DeleteRequest.Key } },
    ),
  );
}

export function isWriteHoldItem(item: Record<string, unknown>): boolean {
  return String(item.sk).startsWith(writeHoldPrefix);
}

/** The hold item of every shard of the account (a delete's expire an hour later: see account-purge.ts). */
export function writeHoldItems(
  hubId: number,
  mode: WriteHoldMode,
  since: string,
  ttl?: number,
): Record<string, unknown>[] {
  return Array.from({ length: writeHoldShards }, (_, shard) => ({
    ...writeHoldKey(hubId, shard),
    mode,
    since,
    ...(ttl === undefined ? {} : { ttl }),
  }));
}

export { WriteHeldError };
