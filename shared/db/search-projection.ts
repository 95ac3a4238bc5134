import { batchDeleteAll, batchGetAll, queryPages, transact, type Item, type TransactItem } from './core';
import { tableName } from './client';
import {
  hubPartition,
  recordKey,
  recordListPrefix,
  searchKey,
  searchPartition,
  searchShardOf,
  searchShards,
  type Key,
  type KeyedType,
} from './keys';

/**
 * The searchable forms of a record's values (built by shared/records/search-forms.ts):
 *   v: the stored value; l: the lower-cased value where it differs; n: an order-preserving string
 *   of the value as a number or instant.
 */
export interface SearchForms {
  id: string;
  v: Record<string, string>;
  l: Record<string, string>;
  n: Record<string, string>;
}

/** What the forms are made from: a record's set values and its computed ones. */
export interface SearchableRecord {
  id: string;
  properties: Record<string, string>;
  createdAt: string;
  updatedAt: string;
}

/**
 * The projection item of an active record, written in the same TransactWriteItems as the
 * record itself (shared/db/records.ts saveRecord), so a search never sees it drift.
 * `r` is the record's version: the backfill only writes over older projections.
 */
export function searchProjectionPut(type: KeyedType, hubId: number, forms: SearchForms, version: number): TransactItem {
  const { id, ...values } = forms;
  return { Put: { TableName: tableName, Item: { ...searchKey(type, hubId, id), r: version, ...values } } };
}

/** An archived record leaves the projection in the transaction that archives it. */
export function searchProjectionDelete(type: KeyedType, hubId: number, id: string): TransactItem {
  return { Delete: { TableName: tableName, Key: searchKey(type, hubId, id) } };
}

/** What DynamoDB evaluates: the filter it can, and only the forms the search needs back. */
export interface ProjectionQuery {
  filterExpression?: string;
  projectionExpression: string;
  names: Record<string, string>;
  values: Record<string, unknown>;
  /** The first page of each shard asks for more (the values the answer shows). */
  firstPage?: { projectionExpression: string; names: Record<string, string> };
}

/** Items per Query page of a search: many short calls, none near the client's 2 s socket timeout. */
export const searchPageItems = 500;
/** Query chains (one per shard) in flight at once, at most. */
export const searchChainsInFlight = 8;
/**
 * The bytes of pages one search may have coming back at once: about 512 KB. Pages of compared
 * forms alone (tens of KB) let all 8 chains run; pages that bring long values (a 64 KiB name per
 * item) only 2, so one search of long values does not take a shared database's whole attention
 * (locally, DynamoDB Local on the same cores: with 8 such pages in flight another account's read
 * waits about 2.5 times as long as with 2, and the search is hardly faster).
 */
export const searchBytesInFlight = 512 * 1024;
/** Chains in flight before any page has told what a page weighs. */
const firstChainsInFlight = 2;

/** About the bytes of an item read back (UTF-16 units of its key and forms): what pacing weighs pages by. */
function weightOfItem(item: Item): number {
  let weight = String(item.sk).length;
  for (const forms of [item.v, item.l, item.n]) {
    for (const [name, value] of Object.entries((forms ?? {}) as Record<string, string>))
      weight += name.length + value.length;
  }
  return weight;
}

/** A projection item read back: only the forms the query projected. */
function formsOfItem(item: Item): SearchForms {
  return {
    id: String(item.sk),
    v: (item.v ?? {}) as Record<string, string>,
    l: (item.l ?? {}) as Record<string, string>,
    n: (item.n ?? {}) as Record<string, string>,
  };
}

/**
 * Reads the hub's projection: one Query chain per shard, `searchChainsInFlight` chains at a time,
 * pages of `searchPageItems`, strongly consistent (a write acknowledged before is seen). Each
 * page goes to `onPage` as it arrives, and the chain waits for it before asking for the next, so
 * the caller keeps only what it needs and can take its time. Items the filter drops cost read
 * capacity but are neither sent nor parsed. An item outside its home shard (left by an older shard
 * count until the backfill moves it) is skipped: its record's current item is in the home shard.
 * `onPage` learns whether a page was its shard's first (asked with `firstPage`'s projection).
 *
 * Every chain ends with the scan: when `signal` aborts (the caller's deadline or cancellation) the
 * scan rejects with its reason, and when any chain fails (a DynamoDB error, `onPage` throwing) the
 * others are aborted too; either way every Query in flight is canceled and no chain asks for
 * another page. Returns the Query calls made.
 */
export async function scanSearchProjection(
  type: KeyedType,
  hubId: number,
  query: ProjectionQuery,
  signal: AbortSignal,
  onPage: (forms: SearchForms[], isFirstPage: boolean) => Promise<void> | void,
  pageItems = searchPageItems,
): Promise<number> {
  let queries = 0;
  let nextShard = 0;
  const failed = new AbortController();
  const stopped = AbortSignal.any([signal, failed.signal]);
  const maxChains = Math.min(searchChainsInFlight, searchShards);
  // Pacing: a chain sends its next Query only while the calls in flight are fewer than the byte
  // budget allows for pages as heavy as the heaviest of the last few that brought items.
  let inFlight = 0;
  const recentWeights: number[] = [];
  const allowedInFlight = () => {
    if (recentWeights.length === 0) return Math.min(firstChainsInFlight, maxChains);
    return Math.max(1, Math.min(maxChains, Math.floor(searchBytesInFlight / Math.max(1, ...recentWeights))));
  };
  let waiting: (() => void)[] = [];
  const wakeAll = () => {
    const woken = waiting;
    waiting = [];
    for (const wake of woken) wake();
  };
  const chain = async (): Promise<void> => {
    for (let shard = nextShard++; shard < searchShards; shard = nextShard++) {
      const pages = queryPages(
        {
          pk: searchPartition(type, hubId, shard),
          filter: query.filterExpression,
          projection: query.projectionExpression,
          names: query.names,
          values: query.values,
          pageSize: pageItems,
        },
        query.firstPage ? { projection: query.firstPage.projectionExpression, names: query.firstPage.names } : {},
        stopped,
      );
      for (let isFirstPage = true; ; isFirstPage = false) {
        stopped.throwIfAborted();
        while (inFlight >= allowedInFlight()) {
          await new Promise<void>((resolve) => waiting.push(resolve));
          stopped.throwIfAborted();
        }
        inFlight += 1;
        let page: IteratorResult<Item[]>;
        try {
          page = await pages.next();
        } finally {
          inFlight -= 1;
          wakeAll();
        }
        if (page.done) break;
        queries += 1;
        // An empty page (a shard's last) says nothing of what the next shard's pages weigh.
        if (page.value.length > 0) recentWeights.push(page.value.reduce((sum, item) => sum + weightOfItem(item), 0));
        if (recentWeights.length > searchChainsInFlight) recentWeights.shift();
        stopped.throwIfAborted();
        await onPage(
          page.value.filter((item) => searchShardOf(String(item.sk)) === shard).map(formsOfItem),
          isFirstPage,
        );
      }
    }
  };
  // A chain waiting for its turn must hear the end of the scan too.
  stopped.addEventListener('abort', wakeAll, { once: true });
  const chains = Array.from({ length: maxChains }, () =>
    chain().catch((error: unknown) => {
      failed.abort(error);
      throw error;
    }),
  );
  try {
    await Promise.all(chains);
  } catch (error) {
    // A call canceled by the caller's signal rejects with the SDK's AbortError: the caller's reason says why.
    throw signal.aborted ? signal.reason : error;
  } finally {
    failed.abort(Object.assign(new Error('search scan ended'), { name: 'AbortError' }));
  }
  return queries;
}

/**
 * The stored values (`v` forms) of the page's records, read by key after the page is known:
 * one BatchGetItem per 100 ids, strongly consistent. A record archived since the page was chosen
 * has no projection item any more and is absent from the map.
 */
export async function readSearchValues(
  type: KeyedType,
  hubId: number,
  ids: readonly string[],
): Promise<Map<string, Record<string, string>>> {
  const items = await batchGetAll(
    ids.map((id) => searchKey(type, hubId, id)),
    { attributes: ['v'] },
  );
  return new Map(items.map((item) => [String(item.sk), (item.v ?? {}) as Record<string, string>]));
}

/** An active record's forms and version as its projection item holds them. */
export interface ProjectedRecord {
  version: number;
  forms: SearchForms;
}

/** A projection item as the record's forms and version. */
export const projectedRecordOf = (item: Item): ProjectedRecord => ({
  version: Number(item.r),
  forms: {
    id: String(item.sk),
    v: (item.v ?? {}) as Record<string, string>,
    l: (item.l ?? {}) as Record<string, string>,
    n: (item.n ?? {}) as Record<string, string>,
  },
});

/** The projection items of these records (every form, and the version): one BatchGetItem per 100 ids; an archived record is absent. */
export async function readProjectedRecords(
  type: KeyedType,
  hubId: number,
  ids: readonly string[],
): Promise<Map<string, ProjectedRecord>> {
  const items = await batchGetAll(ids.map((id) => searchKey(type, hubId, id)));
  return new Map(items.map((item) => [String(item.sk), projectedRecordOf(item)]));
}

/** Deletes projection items outside their home shard (written under an older shard count); their records' items are in the home shard. */
async function removeStrayProjections(type: KeyedType, hubId: number): Promise<number> {
  let removed = 0;
  for (let shard = 0; shard < searchShards; shard += 1) {
    const pk = searchPartition(type, hubId, shard);
    const strays: Key[] = [];
    for await (const page of queryPages({ pk, projection: '#sk', names: { '#sk': 'sk' } })) {
      for (const item of page) if (searchShardOf(String(item.sk)) !== shard) strays.push({ pk, sk: String(item.sk) });
    }
    await batchDeleteAll(strays);
    removed += strays.length;
  }
  return removed;
}

/** An active record as a backfill reads it: what its derived items are built from, and the version they are checked against. */
export type BackfilledRecord = SearchableRecord & { version: number };

/**
 * Writes items derived from every active record of the hub's type (data written before they
 * existed): each record's writes go with a check that the record still has the version they were
 * built from, 25 records per transaction, so a concurrent write or archive (which writes its own)
 * is never overwritten with an older state; when a transaction is refused, one per record, skipping
 * those that changed or already had theirs. `writesOf` gives a record's writes.
 */
export async function backfillActiveRecords(
  type: KeyedType,
  hubId: number,
  writesOf: (record: BackfilledRecord) => TransactItem[],
): Promise<{ records: number; written: number }> {
  let records = 0;
  let written = 0;
  const pages = queryPages({
    pk: hubPartition(hubId),
    skPrefix: recordListPrefix(type, false),
    pageSize: 25,
    projection: '#id, #properties, #createdAt, #updatedAt, #version',
    names: {
      '#id': 'id',
      '#properties': 'properties',
      '#createdAt': 'createdAt',
      '#updatedAt': 'updatedAt',
      '#version': 'version',
    },
  });
  for await (const page of pages) {
    const found = page as (BackfilledRecord & Item)[];
    records += found.length;
    if (found.length === 0) continue;
    const groups = found.map((record) => [
      {
        role: record.id,
        write: {
          ConditionCheck: {
            TableName: tableName,
            Key: recordKey(type, hubId, record.id),
            ConditionExpression: '#version = :version',
            ExpressionAttributeNames: { '#version': 'version' },
            ExpressionAttributeValues: { ':version': record.version },
          },
        },
      },
      ...writesOf(record).map((write) => ({ role: record.id, write })),
    ]);
    if ((await transact(groups.flat())).committed) {
      written += found.length;
      continue;
    }
    for (const group of groups) if ((await transact(group)).committed) written += 1;
  }
  return { records, written };
}

/**
 * Writes the projection of every active record of the type in the hub that lacks a current one (data
 * written before the projection existed), each only over an older one, checked against the record's
 * version (backfillActiveRecords). Then removes items outside their home shard (after a change of
 * searchShards; searches skip them meanwhile). `formsOf` is the domain's form builder.
 */
export async function backfillSearchProjection(
  type: KeyedType,
  hubId: number,
  formsOf: (record: SearchableRecord) => SearchForms,
): Promise<{ companies: number; written: number; removed: number }> {
  const { records: companies, written } = await backfillActiveRecords(type, hubId, (record) => {
    const put = searchProjectionPut(type, hubId, formsOf(record), record.version).Put;
    return [
      {
        Put: {
          TableName: tableName,
          Item: put?.Item ?? {},
          ConditionExpression: 'attribute_not_exists(pk) OR #r < :version',
          ExpressionAttributeNames: { '#r': 'r' },
          ExpressionAttributeValues: { ':version': record.version },
        },
      },
    ];
  });
  return { companies, written, removed: await removeStrayProjections(type, hubId) };
}
