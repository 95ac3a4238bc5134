import { randomUUID } from 'node:crypto';
import {
  BatchGetCommand,
  BatchWriteCommand,
  type DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  type UpdateCommand,
  type QueryCommandInput,
  type QueryCommandOutput,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { jitteredDelayMs, sleep, type RetryPolicy } from '../base/retry';
import { db, tableName } from './client';
import { maxBatchWriteRequests, withoutKeys, type WriteRequest } from './item';
import { DatabaseThrottledError } from './repository-errors';
import type { Key } from './keys';
import { runningWriteGuard } from './write-guard';

export { DatabaseThrottledError } from './repository-errors';
export { itemBytes } from './item';

/**
 * The data-access core: every multi-request loop of the repositories (query all pages, batch
 * reads, puts and deletes with their unprocessed leftovers, conditional writes, transactions and
 * their cancellation reasons) lives here once, with one retry policy, and so does the one allocator
 * of expression placeholders. Only this file tells a failed condition or a canceled transaction
 * from other errors. Inside a test account's write guard (write-guard.ts) every write here carries
 * the ConditionCheck of the account's write hold.
 */

export type Item = Record<string, unknown>;

/**
 * The most one item of this service may hold: DynamoDB refuses items over 400 KB (with a
 * ValidationException, which no condition explains), and itemBytes estimates, so keep room.
 */
export const maxItemBytes = 350_000;

/**
 * The writes one transaction of this service may hold: DynamoDB's limit of 100 items in one
 * TransactWriteItems, less the one a test account's write guard adds.
 */
export const maxTransactionItems = 99;

/**
 * One policy for unprocessed batch requests: up to `attempts` requests, waiting before each retry a
 * random time up to base * 2^retry, capped ("full jitter"), so competing callers spread out. Worst
 * case about 1.6 s of waiting, well inside the Lambda timeout.
 */
export const unprocessedRetryPolicy: Readonly<RetryPolicy> = { attempts: 6, baseDelayMs: 25, maxDelayMs: 800 };

/** Sends `requests`, then what each answer leaves unprocessed, under the one retry policy. */
async function sendUntilProcessed<T>(
  operation: string,
  requests: T[],
  send: (batch: T[]) => Promise<T[]>,
): Promise<void> {
  let pending = requests;
  for (let attempt = 0; attempt < unprocessedRetryPolicy.attempts; attempt += 1) {
    if (attempt > 0) await sleep(jitteredDelayMs(attempt, unprocessedRetryPolicy));
    pending = await send(pending);
    if (pending.length === 0) return;
  }
  throw new DatabaseThrottledError(operation, pending.length, unprocessedRetryPolicy.attempts);
}

function chunks<T>(values: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < values.length; start += size) out.push(values.slice(start, start + size));
  return out;
}

const keyId = (key: Key) => `${key.pk}\u0000${key.sk}`;

/** DynamoDB's limit of keys in one BatchGetItem. */
const maxBatchGetKeys = 100;

export interface BatchGetOptions {
  /** Strongly consistent reads (the default). */
  consistent?: boolean;
  /** Only these attributes (pk and sk are always returned). */
  attributes?: readonly string[];
}

/**
 * The items of any number of keys (duplicates read once), in no particular order; missing keys
 * are simply absent. Unprocessed keys are retried, never dropped: DatabaseThrottledError when
 * some stay unprocessed.
 */
export async function batchGetAll(keys: readonly Key[], options: BatchGetOptions = {}): Promise<Item[]> {
  const unique = [...new Map(keys.map((key) => [keyId(key), { pk: key.pk, sk: key.sk }])).values()];
  const placeholders = new ExpressionPlaceholders();
  const projection = options.attributes
    ? {
        ProjectionExpression: [...new Set(['pk', 'sk', ...options.attributes])]
          .map((name) => placeholders.name(name))
          .join(', '),
        ...placeholders.attributes(),
      }
    : {};
  const found: Item[] = [];
  for (const chunk of chunks(unique, maxBatchGetKeys)) {
    await sendUntilProcessed<Item>('BatchGetItem', chunk, async (pending) => {
      const result = await db.send(
        new BatchGetCommand({
          RequestItems: { [tableName]: { Keys: pending, ConsistentRead: options.consistent ?? true, ...projection } },
        }),
      );
      found.push(...(result.Responses?.[tableName] ?? []));
      return result.UnprocessedKeys?.[tableName]?.Keys ?? [];
    });
  }
  return found;
}

/**
 * Any number of write requests (BatchWriteItem, 25 at a time), retrying unprocessed ones. Inside a
 * write guard, each 25 (fewer when they are large) go as one transaction with the hold's check
 * instead (a batch write takes no condition).
 */
async function batchWriteAll(requests: readonly WriteRequest[]): Promise<void> {
  const guard = runningWriteGuard();
  if (guard) {
    for (const transaction of guard.transactionsOf(tableName, requests)) await transactAll(transaction);
    return;
  }
  for (const chunk of chunks(requests, maxBatchWriteRequests)) {
    await sendUntilProcessed('BatchWriteItem', chunk, async (pending) => {
      const result = await db.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
      return (result.UnprocessedItems?.[tableName] ?? []) as WriteRequest[];
    });
  }
}

/** Deletes any number of items (BatchWriteItem, 25 at a time), retrying unprocessed deletes. */
export async function batchDeleteAll(keys: readonly Key[]): Promise<void> {
  await batchWriteAll(keys.map((key) => ({ DeleteRequest: { Key: { pk: key.pk, sk: key.sk } } })));
}

/** Unconditional puts of any number of items (BatchWriteItem, 25 at a time), retrying unprocessed puts. */
export async function batchPutAll(items: readonly Item[]): Promise<void> {
  await batchWriteAll(items.map((Item) => ({ PutRequest: { Item } })));
}

/**
 * A Query over one partition, optionally a sort-key prefix, a filter and a projection; always
 * strongly consistent; in sort-key order, or newest first (descending) with `newestFirst`.
 */
export interface PartitionQuery {
  pk: string;
  skPrefix?: string;
  /** FilterExpression, ProjectionExpression and their placeholders (not :queryPk / :querySkPrefix). */
  filter?: string;
  projection?: string;
  names?: Record<string, string>;
  values?: Item;
  /** Items per Query call (DynamoDB's 1 MB page when absent). */
  pageSize?: number;
  /** Descending sort-key order (ScanIndexForward false): the newest first where the sort key starts with a time. */
  newestFirst?: boolean;
  /** A condition on the sort keys instead of a prefix (skBetween's). */
  skCondition?: SortKeyCondition;
}

/** What a partition query's key condition adds for its sort keys, and the values it names. */
export interface SortKeyCondition {
  expression: string;
  values: Item;
}

/** Sort keys from `low` and/or up to `high`, both inclusive. */
export function skBetween(range: { low?: string; high?: string }): SortKeyCondition {
  return {
    expression:
      range.low !== undefined && range.high !== undefined
        ? ' AND sk BETWEEN :querySkLow AND :querySkHigh'
        : range.low !== undefined
          ? ' AND sk >= :querySkLow'
          : range.high !== undefined
            ? ' AND sk <= :querySkHigh'
            : '',
    values: {
      ...(range.low !== undefined ? { ':querySkLow': range.low } : {}),
      ...(range.high !== undefined ? { ':querySkHigh': range.high } : {}),
    },
  };
}

/** The QueryCommand input of a partition query (its key condition, filter, projection and order; strongly consistent). */
function queryInputOf(query: PartitionQuery): QueryCommandInput {
  const range = query.skPrefix === undefined ? query.skCondition : undefined;
  return {
    TableName: tableName,
    KeyConditionExpression:
      query.skPrefix === undefined
        ? `pk = :queryPk${range?.expression ?? ''}`
        : 'pk = :queryPk AND begins_with(sk, :querySkPrefix)',
    ...(query.filter ? { FilterExpression: query.filter } : {}),
    ...(query.projection ? { ProjectionExpression: query.projection } : {}),
    ...(query.names && Object.keys(query.names).length > 0 ? { ExpressionAttributeNames: query.names } : {}),
    ExpressionAttributeValues: {
      ...query.values,
      ':queryPk': query.pk,
      ...(query.skPrefix === undefined ? {} : { ':querySkPrefix': query.skPrefix }),
      ...range?.values,
    },
    ...(query.pageSize ? { Limit: query.pageSize } : {}),
    ...(query.newestFirst ? { ScanIndexForward: false } : {}),
    ConsistentRead: true,
  };
}

function sendQuery(
  query: PartitionQuery,
  startKey: Item | Key | undefined,
  signal: AbortSignal | undefined,
): Promise<QueryCommandOutput> {
  return db.send(
    new QueryCommand({ ...queryInputOf(query), ExclusiveStartKey: startKey ? { ...startKey } : undefined }),
    signal ? { abortSignal: signal } : {},
  );
}

/**
 * One Query call: up to `pageSize` items after `startKey`, and the key to continue from when there
 * are more. An aborted `signal` cancels the call (it rejects with the SDK's AbortError).
 */
export async function queryPage(
  query: PartitionQuery,
  startKey?: Item | Key,
  signal?: AbortSignal,
): Promise<{ items: Item[]; nextKey?: Item }> {
  const page = await sendQuery(query, startKey, signal);
  return { items: page.Items ?? [], ...(page.LastEvaluatedKey ? { nextKey: page.LastEvaluatedKey } : {}) };
}

/** How many items a Query's key condition matches (Select COUNT, every page followed): reads keys, returns none. */
export async function queryCount(query: PartitionQuery, signal?: AbortSignal): Promise<number> {
  let count = 0;
  let startKey: Item | undefined;
  do {
    const page = await db.send(
      new QueryCommand({ ...queryInputOf(query), Select: 'COUNT', ExclusiveStartKey: startKey }),
      signal ? { abortSignal: signal } : {},
    );
    count += page.Count ?? 0;
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return count;
}

/**
 * The one paging loop: `send` from the start, then from each page's LastEvaluatedKey, until a page
 * comes back without one. No page cap: a caller that wants a bound stops iterating. Exported for
 * the benchmark, which pages its floor's Query and its table copy's Scan through a plain client of
 * its own (so what it measures is DynamoDB alone, and no Lambda code can send a Scan).
 */
export async function* followPages<P extends { LastEvaluatedKey?: Item }>(
  send: (startKey: Item | undefined) => Promise<P>,
): AsyncGenerator<P> {
  let startKey: Item | undefined;
  do {
    const page = await send(startKey);
    yield page;
    startKey = page.LastEvaluatedKey;
  } while (startKey);
}

/**
 * The pages of a query, one Query call each, following LastEvaluatedKey to the end. `firstPage`
 * changes what the first call asks (a wider projection, say); the key condition stays the same.
 * An aborted `signal` cancels the call in flight.
 */
export async function* queryPages(
  query: PartitionQuery,
  firstPage: Pick<PartitionQuery, 'projection' | 'names'> = {},
  signal?: AbortSignal,
): AsyncGenerator<Item[]> {
  for await (const page of followPages((startKey) =>
    sendQuery(startKey ? query : { ...query, ...firstPage }, startKey, signal),
  ))
    yield page.Items ?? [];
}

/** Every item of one partition whose sort key starts with `skPrefix`, all pages, strongly consistent. */
export async function queryAll(pk: string, skPrefix: string): Promise<Item[]> {
  const items: Item[] = [];
  for await (const page of queryPages({ pk, skPrefix })) items.push(...page);
  return items;
}

/** One item by its key; strongly consistent unless `consistent` is false (items that never change once written). */
export async function getItem(key: Key, consistent = true): Promise<Item | undefined> {
  const result = await db.send(
    new GetCommand({ TableName: tableName, Key: { pk: key.pk, sk: key.sk }, ConsistentRead: consistent }),
  );
  return result.Item;
}

/**
 * A string attribute of an item as a failed condition returns it: errors carry the item in wire
 * format ({ S: ... }), since the document client does not unmarshall errors.
 */
export function stringAttribute(item: Item | undefined, name: string): string | undefined {
  const raw = item?.[name];
  if (typeof raw === 'string') return raw;
  const wire = (raw as { S?: unknown } | undefined)?.S;
  return typeof wire === 'string' ? wire : undefined;
}

/** A number attribute of an item as a failed condition returns it (wire format { N: '12' }, or a number). */
export function numberAttribute(item: Item | undefined, name: string): number | undefined {
  const raw = item?.[name];
  if (typeof raw === 'number') return raw;
  const wire = (raw as { N?: unknown } | undefined)?.N;
  return typeof wire === 'string' ? Number(wire) : undefined;
}

function isConditionalCheckFailed(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { name?: string }).name === 'ConditionalCheckFailedException'
  );
}

/**
 * What a conditional write did: written, with the item's attributes when the command asked for them
 * (ReturnValues); or not, with the item that failed the condition when the command asked for it
 * (ReturnValuesOnConditionCheckFailure: 'ALL_OLD'; in wire format, see stringAttribute).
 */
export type ConditionalWriteOutcome = { written: true; attributes?: Item } | { written: false; item?: Item };

/**
 * Sends one Put, Update or Delete that carries a ConditionExpression: a failed condition is an
 * answer (written: false), every other error throws. The one place that catches a failed condition.
 */
export async function conditionalWrite(
  command: PutCommand | UpdateCommand | DeleteCommand,
): Promise<ConditionalWriteOutcome> {
  const guarded = runningWriteGuard()?.transactItemOf(command);
  if (guarded) {
    const outcome = await transact([{ role: 'write', write: guarded }]);
    if (outcome.committed) return { written: true };
    const failed = outcome.reasons.find(
      (reason) => reason.role === 'write' && reason.code === 'ConditionalCheckFailed',
    );
    if (!failed) throw outcome.error;
    return { written: false, ...(failed.item ? { item: failed.item } : {}) };
  }
  try {
    const output = (await db.send(command as PutCommand)) as { Attributes?: Item };
    return { written: true, ...(output.Attributes ? { attributes: output.Attributes } : {}) };
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
    const item = (error as { Item?: Item }).Item;
    return { written: false, ...(item ? { item } : {}) };
  }
}

/**
 * Puts an item that must not exist yet; false when one with its key does. A put can succeed and
 * its answer be lost (a timeout); the SDK's retry then finds the item. The write id, returned
 * with the failed condition, tells our own first attempt from another request's item.
 * (Transactions get the same from the ClientRequestToken the SDK adds.)
 */
export async function putNew(item: Item): Promise<boolean> {
  const writeId = randomUUID();
  const outcome = await conditionalWrite(
    new PutCommand({
      TableName: tableName,
      Item: { ...item, writeId },
      ConditionExpression: 'attribute_not_exists(pk)',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    }),
  );
  return outcome.written || stringAttribute(outcome.item, 'writeId') === writeId;
}

/**
 * The one allocator of expression placeholders: `name(attribute)` gives the same placeholder for
 * the same attribute name each time, `value(value)` a new one for every value. `names` and `values`
 * hold what was allocated, for ExpressionAttributeNames and ExpressionAttributeValues. The prefixes
 * keep allocated placeholders apart from an expression's fixed ones (':one', '#count').
 */
export class ExpressionPlaceholders {
  readonly names: Record<string, string> = {};
  readonly values: Item = {};
  private readonly nameOf = new Map<string, string>();
  private valueCount = 0;

  constructor(private readonly prefixes: { name: string; value: string } = { name: '#n', value: ':v' }) {}

  name(attribute: string): string {
    let placeholder = this.nameOf.get(attribute);
    if (placeholder === undefined) {
      placeholder = `${this.prefixes.name}${this.nameOf.size}`;
      this.nameOf.set(attribute, placeholder);
      this.names[placeholder] = attribute;
    }
    return placeholder;
  }

  value(value: unknown): string {
    const placeholder = `${this.prefixes.value}${this.valueCount}`;
    this.valueCount += 1;
    this.values[placeholder] = value;
    return placeholder;
  }

  /**
   * ExpressionAttributeNames and ExpressionAttributeValues: the fixed ones and the allocated, each
   * left out when empty (DynamoDB rejects an empty map).
   */
  attributes(fixed: { names?: Record<string, string>; values?: Item } = {}): {
    ExpressionAttributeNames?: Record<string, string>;
    ExpressionAttributeValues?: Item;
  } {
    const names = { ...fixed.names, ...this.names };
    const values = { ...fixed.values, ...this.values };
    return {
      ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
      ...(Object.keys(values).length > 0 ? { ExpressionAttributeValues: values } : {}),
    };
  }
}

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** One write of a transaction and what it stands for, so a cancellation can be explained by role. */
export interface RoleWrite<R> {
  role: R;
  write: TransactItem;
}

/** Why one write of a canceled transaction failed; `item` is the old item when the write asked for it. */
export interface CancellationReason<R> {
  role: R;
  code: string;
  item?: Item;
}

export type TransactOutcome<R> =
  | { committed: true }
  /** Only the writes that failed (code other than None), in write order; `error` to rethrow what the caller cannot explain. */
  | { committed: false; reasons: CancellationReason<R>[]; error: unknown };

/**
 * A transaction canceled only because another transaction held one of its items at that moment
 * (TransactionConflict: nothing was written) is sent again, up to this many times in all, after a
 * jittered wait; the items' conditions are evaluated anew each time.
 */
const conflictRetryPolicy: Readonly<RetryPolicy> = { attempts: 4, baseDelayMs: 20, maxDelayMs: 200 };

type RawReason = { Code?: string; Item?: Item };

function cancellationReasonsOf(error: unknown): RawReason[] | undefined {
  if (
    typeof error !== 'object' ||
    error === null ||
    (error as { name?: string }).name !== 'TransactionCanceledException'
  )
    return undefined;
  return (error as { CancellationReasons?: RawReason[] }).CancellationReasons ?? [];
}

/**
 * Writes all or nothing; a canceled transaction comes back with its reasons by role, other errors
 * throw. Inside a write guard the transaction carries the hold's check as its last item, and meeting
 * the hold throws WriteHeldError.
 */
export async function transact<R>(writes: readonly RoleWrite<R>[]): Promise<TransactOutcome<R>> {
  const guard = runningWriteGuard();
  const items = writes.map((entry) => entry.write);
  if (guard) items.push(guard.holdCheck(tableName));
  for (let attempt = 0; ; attempt += 1) {
    if (attempt > 0) await sleep(jitteredDelayMs(attempt, conflictRetryPolicy));
    try {
      await db.send(new TransactWriteCommand({ TransactItems: items }));
      return { committed: true };
    } catch (error) {
      const raw = cancellationReasonsOf(error);
      if (!raw) throw error;
      const hold = guard ? raw[writes.length] : undefined;
      if (guard && hold?.Code === 'ConditionalCheckFailed') throw guard.heldError(hold.Item);
      const failed = raw.filter((reason) => reason.Code && reason.Code !== 'None');
      const isConflictOnly = failed.length > 0 && failed.every((reason) => reason.Code === 'TransactionConflict');
      if (isConflictOnly && attempt + 1 < conflictRetryPolicy.attempts) continue;
      return { committed: false, reasons: reasonsByRole(writes, raw), error };
    }
  }
}

/** The writes that failed (code other than None), in write order, by role; the hold's check is not one of them. */
function reasonsByRole<R>(writes: readonly RoleWrite<R>[], raw: readonly RawReason[]): CancellationReason<R>[] {
  const reasons: CancellationReason<R>[] = [];
  raw.forEach((reason, index) => {
    const entry = writes[index];
    if (!entry || !reason.Code || reason.Code === 'None') return;
    reasons.push({ role: entry.role, code: reason.Code, ...(reason.Item ? { item: reason.Item } : {}) });
  });
  return reasons;
}

/** Writes all or nothing where any cancellation is the caller's error (a condition that only a bug or a race with itself breaks). */
export async function transactAll(writes: readonly TransactItem[]): Promise<void> {
  const outcome = await transact(writes.map((write) => ({ role: undefined, write })));
  if (!outcome.committed) throw outcome.error;
}

/**
 * An entity declared once, as an object literal: how a record becomes its item (key plus fields)
 * and back (itemOf, recordOf). `scope` is what the key needs beyond the record (the hub of a
 * hub-owned record, say). A literal builds nothing when its module loads, so esbuild leaves out of a
 * bundle the entities it never uses, and a route's bundle keeps only the key formats its code can
 * reach (its IAM LeadingKeys grant follows from them, test/lib/route-partitions.test.ts).
 */
export interface Entity<R extends object, S = void> {
  key(record: R, scope: S): Key;
  /** Bookkeeping attributes stored beside the record (an entity tag, say). */
  attributes?: Item;
  /** The record of an item; by default the item without its key and bookkeeping attributes. */
  read?(item: Item): R;
}

/** The item of a record: its key, the entity's bookkeeping attributes, the record's fields. */
export function itemOf<R extends object, S>(
  entity: Entity<R, S>,
  record: R,
  ...[scope]: S extends void ? [] : [scope: S]
): Item {
  return { ...entity.key(record, scope as S), ...entity.attributes, ...record };
}

/** The record an item holds. */
export function recordOf<R extends object, S>(entity: Entity<R, S>, item: Item): R {
  return entity.read ? entity.read(item) : withoutKeys<R>(item);
}
