import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { nowMs } from '../base/clock';
import { db, tableName } from './client';
import {
  batchGetAll,
  queryCount,
  queryPage,
  skBetween,
  type Item,
  type PartitionQuery,
  type TransactItem,
} from './core';
import {
  accountKey,
  orderIndexKey,
  orderIndexPartition,
  recordCountKey,
  searchShardOf,
  searchShards,
  type KeyedType,
  type OrderIndexKind,
} from './keys';
import { backfillActiveRecords, type SearchableRecord, type SearchForms } from './search-projection';

/**
 * The ordered index of a type's active records and their count (keys.ts orderIndexKey,
 * recordCountKey): what a search that pages by create date, modified date or id reads instead of
 * the whole projection (shared/search/ordered-search.ts). Both change in the record's own
 * transaction, so they are consistent at once, like the projection.
 */

export type { OrderIndexKind } from './keys';
/** How many shards each order (and the count) is spread over: the search projection's. */
export const orderIndexShards = searchShards;

/** A record's place in each order: the sortable forms of its create and modified instants. */
export interface OrderForms {
  c: string;
  m: string;
}

/** A record's place in each order, from its search forms (searchFormsOf always sets both instants). */
export function orderFormsOf(forms: Pick<SearchForms, 'id' | 'n'>): OrderForms {
  const c = forms.n.createdate;
  const m = forms.n.hs_lastmodifieddate;
  if (c === undefined || m === undefined)
    throw new Error(`the search forms of ${forms.id} have no create or modified instant`);
  return { c, m };
}

/**
 * The index writes of one record's change: from its place before (undefined: it was not active)
 * to its place after (undefined: it is no longer active). A place that does not move is not written.
 */
export function orderIndexWrites(
  type: KeyedType,
  hubId: number,
  id: string,
  before: OrderForms | undefined,
  after: OrderForms | undefined,
): TransactItem[] {
  const writes: TransactItem[] = [];
  for (const kind of ['c', 'm'] as const) {
    const from = before?.[kind];
    const to = after?.[kind];
    if (from === to) continue;
    if (from !== undefined)
      writes.push({ Delete: { TableName: tableName, Key: orderIndexKey(type, hubId, kind, from, id) } });
    if (to !== undefined)
      writes.push({ Put: { TableName: tableName, Item: orderIndexKey(type, hubId, kind, to, id) } });
  }
  return writes;
}

/** What a change does to the active record count: +1 a record becomes active, -1 one stops being. */
export const countDeltaOf = (before: OrderForms | undefined, after: OrderForms | undefined): number =>
  (after ? 1 : 0) - (before ? 1 : 0);

/**
 * The counters of a type that is closing (its schema being archived) or closed (archived) carry
 * `closedUntil`, epoch milliseconds: until then, no transaction that adds active records of the
 * type commits, since its counter write is conditioned on it (recordCountWrites). A closing lasts
 * closingMs, so one whose archive never finished (the function ended) lapses by itself; an archived
 * type's counters are closed for good (closedForGood).
 */
export const closedUntilAttribute = 'closedUntil';
/** How long a closing holds the type's counters: longer than one archive call can take (the function's timeout). */
export const closingMs = 30_000;
/** The closedUntil of an archived type's counters. */
export const closedForGood = Number.MAX_SAFE_INTEGER;

/**
 * The count write of changes written together: one Update of one counter with the sum of their
 * deltas (a transaction may not write one item twice; the count is the sum of every counter, so
 * which one moves does not matter), the counter of the first change's shard, so writes spread over
 * all of them. A zero sum writes nothing. A positive sum (records added) holds only while the type
 * is not closed (closedUntilAttribute): a condition on the item the write changes anyway, so it costs
 * no extra item; a failed one returns the counter, which says whether the type is closed for good.
 */
export function recordCountWrites(
  type: KeyedType,
  hubId: number,
  deltas: readonly { shard: number; delta: number }[],
  now: number = nowMs(),
  lists?: ListsTokenCheck,
): TransactItem[] {
  const delta = deltas.reduce((sum, entry) => sum + entry.delta, 0);
  const shard = deltas[0]?.shard;
  if (shard === undefined || (delta === 0 && !lists)) return [];
  const conditions: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  if (delta > 0) {
    conditions.push('(attribute_not_exists(#closedUntil) OR #closedUntil < :now)');
    names['#closedUntil'] = closedUntilAttribute;
    values[':now'] = now;
  }
  if (lists) {
    names['#listsToken'] = listsTokenAttribute;
    if (lists.token === undefined) conditions.push('attribute_not_exists(#listsToken)');
    else {
      conditions.push('#listsToken = :listsToken');
      values[':listsToken'] = lists.token;
    }
  }
  const condition =
    conditions.length > 0
      ? {
          ConditionExpression: conditions.join(' AND '),
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
        }
      : {};
  // A transaction that moves no count still checks the lists' token: on the counter of its first record.
  if (delta === 0)
    return [
      {
        ConditionCheck: {
          TableName: tableName,
          Key: recordCountKey(type, hubId, shard),
          ExpressionAttributeNames: names,
          ...(Object.keys(values).length > 0 ? { ExpressionAttributeValues: values } : {}),
          ConditionExpression: condition.ConditionExpression ?? 'attribute_not_exists(#listsToken)',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
    ];
  return [
    {
      Update: {
        TableName: tableName,
        Key: recordCountKey(type, hubId, shard),
        UpdateExpression: 'ADD #count :delta',
        ExpressionAttributeNames: { '#count': 'count', ...names },
        ExpressionAttributeValues: { ':delta': delta, ...values },
        ...condition,
      },
    },
  ];
}

/**
 * The token of a type's DYNAMIC lists (shared/db/dynamic-lists.ts), on each of its counters: every
 * change of the type's DYNAMIC lists sets a new one on all of them in its own transaction, and every
 * record write checks, on the counter it writes (or a ConditionCheck of one), the token of the lists
 * it evaluated. So a write that evaluated an older set of lists fails instead of committing.
 */
export const listsTokenAttribute = 'listsToken';

/** The token a write's lists were read with (undefined: the type had no DYNAMIC lists). */
export interface ListsTokenCheck {
  token: string | undefined;
}

/** The writes that set a new lists token on every counter of a type. */
export function listsTokenWrites(type: KeyedType, hubId: number, token: string): TransactItem[] {
  return Array.from({ length: searchShards }, (_, shard) => ({
    Update: {
      TableName: tableName,
      Key: recordCountKey(type, hubId, shard),
      UpdateExpression: 'SET #listsToken = :token',
      ExpressionAttributeNames: { '#listsToken': listsTokenAttribute },
      ExpressionAttributeValues: { ':token': token },
    },
  }));
}

/**
 * The writes that close every counter of a type until `until` (closingMs from now, or closedForGood),
 * each on the condition that it is open or holds `held` (the closing this caller made): a transaction
 * that commits them has, from then on, every create of the type refused or waiting.
 */
export function closeRecordCountWrites(
  type: KeyedType,
  hubId: number,
  until: number,
  now: number,
  held?: number,
): TransactItem[] {
  return Array.from({ length: searchShards }, (_, shard) => ({
    Update: {
      TableName: tableName,
      Key: recordCountKey(type, hubId, shard),
      UpdateExpression: 'SET #closedUntil = :until',
      ConditionExpression:
        held === undefined ? 'attribute_not_exists(#closedUntil) OR #closedUntil < :now' : '#closedUntil = :held',
      ExpressionAttributeNames: { '#closedUntil': closedUntilAttribute },
      ExpressionAttributeValues: { ':until': until, ...(held === undefined ? { ':now': now } : { ':held': held }) },
    },
  }));
}

/** The writes that open a type's counters again, where they still hold the closing `held`. */
export function reopenRecordCountWrites(type: KeyedType, hubId: number, held: number): TransactItem[] {
  return Array.from({ length: searchShards }, (_, shard) => ({
    Update: {
      TableName: tableName,
      Key: recordCountKey(type, hubId, shard),
      UpdateExpression: 'REMOVE #closedUntil',
      ConditionExpression: '#closedUntil = :held',
      ExpressionAttributeNames: { '#closedUntil': closedUntilAttribute },
      ExpressionAttributeValues: { ':held': held },
    },
  }));
}

/** How many of these ids fall in each counter's shard: what a backfill (or a bulk load) sets the counters to once it has read every active record. */
export function recordCountsByShard(ids: Iterable<string>): number[] {
  const counts = new Array<number>(searchShards).fill(0);
  for (const id of ids) {
    const shard = searchShardOf(id);
    counts[shard] = (counts[shard] ?? 0) + 1;
  }
  return counts;
}

/** The counters as whole items, counting these ids by shard: what a bulk load of a type with no counters yet writes. */
export function recordCountItems(type: KeyedType, hubId: number, ids: Iterable<string>): Item[] {
  return recordCountsByShard(ids).map((count, shard) => ({ ...recordCountKey(type, hubId, shard), count }));
}

/**
 * Sets each counter's count to these ids' (by shard), one UpdateItem a counter that sets only the
 * count: a counter's other attributes stay, its closedUntil above all, so a type a schema archive
 * is closing (or has closed) stays closed.
 */
async function setRecordCounts(type: KeyedType, hubId: number, ids: Iterable<string>): Promise<void> {
  await Promise.all(
    recordCountsByShard(ids).map((count, shard) =>
      db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: recordCountKey(type, hubId, shard),
          UpdateExpression: 'SET #count = :count',
          ExpressionAttributeNames: { '#count': 'count' },
          ExpressionAttributeValues: { ':count': count },
        }),
      ),
    ),
  );
}

/** The index items of an active record (what a create writes), for a backfill or a bulk load. */
export function orderIndexItems(type: KeyedType, hubId: number, forms: Pick<SearchForms, 'id' | 'n'>): Item[] {
  const order = orderFormsOf(forms);
  return [
    { ...orderIndexKey(type, hubId, 'c', order.c, forms.id) },
    { ...orderIndexKey(type, hubId, 'm', order.m, forms.id) },
  ];
}

/**
 * Whether the hub's records are in the ordered index (its account item says so), and how many
 * active records of the type it holds (the sum of the counters): one BatchGetItem.
 */
export async function readOrderState(type: KeyedType, hubId: number): Promise<{ isIndexed: boolean; count: number }> {
  const keys = Array.from({ length: searchShards }, (_, shard) => recordCountKey(type, hubId, shard));
  const items = await batchGetAll([accountKey(hubId), ...keys], { attributes: ['count', 'isOrderIndexed'] });
  return {
    isIndexed: items.some((item) => item.sk === accountKey(hubId).sk && item.isOrderIndexed === true),
    count: items.reduce((sum, item) => sum + (typeof item.count === 'number' ? item.count : 0), 0),
  };
}

/**
 * How many active records of each type the hub holds: every counter of every type (searchShards a
 * type) in BatchGetItem calls of 100 keys, so ceil(16 x types / 100) calls, eventually consistent
 * (a usage report, not a condition). A type with no counters holds none.
 */
export async function readRecordCounts(hubId: number, types: readonly KeyedType[]): Promise<Map<string, number>> {
  const typeOfSk = new Map<string, string>();
  const keys = types.flatMap((type) =>
    Array.from({ length: searchShards }, (_, shard) => {
      const key = recordCountKey(type, hubId, shard);
      typeOfSk.set(key.sk, type.id);
      return key;
    }),
  );
  const counts = new Map<string, number>(types.map((type) => [type.id, 0]));
  for (const item of await batchGetAll(keys, { attributes: ['count'], consistent: false })) {
    const typeId = typeOfSk.get(String(item.sk));
    if (typeId !== undefined && typeof item.count === 'number')
      counts.set(typeId, (counts.get(typeId) ?? 0) + item.count);
  }
  return counts;
}

/** Sort-key bounds of an ordered read (both inclusive): built by the search from its filters (`<form>#`, `<form>#~`). */
export interface SortKeyRange {
  low?: string;
  high?: string;
}

/** One key of the index: its sort key (`<form>#<id>`, the order) and the record id. */
export interface OrderedKey {
  sk: string;
  id: string;
}

function rangeQuery(
  type: KeyedType,
  hubId: number,
  kind: OrderIndexKind,
  shard: number,
  range: SortKeyRange,
): PartitionQuery {
  return { pk: orderIndexPartition(type, hubId, kind, shard), skCondition: skBetween(range) };
}

/** One shard's keys in the range, in order (descending when asked), at most `limit` of them. */
export async function readOrderedKeys(
  type: KeyedType,
  hubId: number,
  kind: OrderIndexKind,
  shard: number,
  range: SortKeyRange,
  options: { descending: boolean; limit: number; signal?: AbortSignal },
): Promise<OrderedKey[]> {
  const page = await queryPage(
    { ...rangeQuery(type, hubId, kind, shard, range), pageSize: options.limit, newestFirst: options.descending },
    undefined,
    options.signal,
  );
  return page.items.map((item) => {
    const sk = String(item.sk);
    return { sk, id: sk.slice(sk.indexOf('#') + 1) };
  });
}

/** How many records of one shard are in the range (keys only, counted by DynamoDB). */
export function countOrderedKeys(
  type: KeyedType,
  hubId: number,
  kind: OrderIndexKind,
  shard: number,
  range: SortKeyRange,
  signal?: AbortSignal,
): Promise<number> {
  return queryCount(rangeQuery(type, hubId, kind, shard, range), signal);
}

/**
 * Puts every active record of the hub's type in the ordered index and sets its counters from what
 * it read: for data written before the index existed (`npm run admin -- search backfill`). Each
 * record's items are checked against its version (search-projection.ts backfillActiveRecords). The
 * counters are set to the records read: a create or archive that lands while the backfill runs can
 * leave them one off; run it again to settle them. Setting them keeps a closing of the type's
 * records (closedUntilAttribute). `formsOf` is the domain's form builder.
 */
export async function backfillOrderIndex(
  type: KeyedType,
  hubId: number,
  formsOf: (record: SearchableRecord) => SearchForms,
): Promise<{ records: number; written: number }> {
  const ids: string[] = [];
  const outcome = await backfillActiveRecords(type, hubId, (record) => {
    ids.push(record.id);
    return orderIndexItems(type, hubId, formsOf(record)).map((Item) => ({ Put: { TableName: tableName, Item } }));
  });
  await setRecordCounts(type, hubId, ids);
  return outcome;
}
