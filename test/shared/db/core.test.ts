import { companyObjectType } from '../../../shared/objects/object-types';
import { randomUUID } from 'node:crypto';
import { ProvisionedThroughputExceededException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../../shared/db/client';
import {
  batchDeleteAll,
  batchGetAll,
  DatabaseThrottledError,
  getItem,
  putNew,
  queryAll,
  queryPage,
  queryPages,
  stringAttribute,
  transact,
  transactAll,
  unprocessedRetryPolicy,
  type Item,
} from '../../../shared/db/core';
import { findRecords } from '../../../shared/db/records';
import {
  scanSearchProjection,
  searchChainsInFlight,
  searchPageItems,
  searchProjectionPut,
  type SearchForms,
} from '../../../shared/db/search-projection';
import { searchPartition, searchShardOf, searchShards, type Key, recordKey } from '../../../shared/db/keys';
import { companyKeys } from '../../../shared/companies/company-keys';
import { errorBody } from '../../../shared/base/error-body';
import { toAppError } from '../../../shared/http/error-mapper';

/**
 * The data-access core against the real DynamoDB Local. Nothing of DynamoDB is mocked: an interceptor
 * on the real client lets every request reach the database and only rewrites the answer (or holds back
 * part of a batch, reported as unprocessed, as DynamoDB does under load), so the core's retries of
 * UnprocessedKeys and throttles run against real reads and writes.
 */

type Middleware = (
  next: (args: { input: Item }) => Promise<{ output: Item }>,
) => (args: { input: Item }) => Promise<{ output: Item }>;

/** Runs `body` with `middleware` on the real client ('initialize': once per send, document-form input and output). */
async function intercepted<T>(
  middleware: Middleware,
  body: () => Promise<T>,
  step: 'initialize' | 'deserialize' = 'initialize',
): Promise<T> {
  const name = `coreTestInterceptor-${randomUUID()}`;
  (db.middlewareStack as unknown as { add: (m: Middleware, o: object) => void }).add(middleware, { step, name });
  try {
    return await body();
  } finally {
    db.middlewareStack.remove(name);
  }
}

interface BatchGetRequest {
  RequestItems: Record<string, { Keys: Item[] } & Item>;
}

/** After the real BatchGetItem answers, reports all but `keep(call)` of the items read as unprocessed keys. */
function unprocessBatchGets(keep: (call: number) => number, calls: { keys: number[] }): Middleware {
  return (next) => async (args) => {
    const request = (args.input as unknown as Partial<BatchGetRequest>).RequestItems?.[tableName];
    if (!request?.Keys) return next(args);
    calls.keys.push(request.Keys.length);
    const answer = await next(args);
    const output = answer.output as {
      Responses?: Record<string, Item[]>;
      UnprocessedKeys?: Record<string, { Keys?: Item[] }>;
    };
    const read = output.Responses?.[tableName] ?? [];
    const kept = keep(calls.keys.length);
    const held = read.slice(kept).map((item) => ({ pk: item.pk, sk: item.sk }));
    output.Responses = { [tableName]: read.slice(0, kept) };
    if (held.length > 0) output.UnprocessedKeys = { [tableName]: { ...request, Keys: held } };
    return answer;
  };
}

const run = randomUUID();
const partition = (name: string) => `CORETEST#${run}#${name}`;

async function putItems(pk: string, count: number, extra: (index: number) => Item = () => ({})): Promise<Key[]> {
  const keys: Key[] = [];
  for (let index = 0; index < count; index += 1) {
    const key = { pk, sk: `ITEM#${String(index).padStart(4, '0')}` };
    await db.send(new PutCommand({ TableName: tableName, Item: { ...key, index, ...extra(index) } }));
    keys.push(key);
  }
  return keys;
}

describe('batchGetAll', () => {
  let keys: Key[];

  beforeAll(async () => {
    keys = await putItems(partition('batch'), 250, (index) => ({ archived: index % 2 === 0, payload: 'x'.repeat(50) }));
  });

  it('reads any number of keys, retrying every unprocessed key until each item came back once', async () => {
    const calls = { keys: [] as number[] };
    const missing = { pk: partition('batch'), sk: 'ITEM#missing' };
    const items = await intercepted(
      unprocessBatchGets(() => 30, calls),
      () => batchGetAll([...keys, keys[0] as Key, missing]),
    );

    expect(items.map((item) => item.sk).sort()).toEqual(keys.map((key) => key.sk));
    // Chunks of 100 (the duplicate read once, the missing key asked once), each retried with what was held back.
    expect(calls.keys).toEqual([100, 70, 40, 10, 100, 70, 40, 10, 51, 20]);
  });

  it('returns only the asked attributes, with the key', async () => {
    const items = await batchGetAll(keys.slice(0, 3), { attributes: ['archived'] });
    expect(items.sort((a, b) => String(a.sk).localeCompare(String(b.sk)))).toEqual(
      keys.slice(0, 3).map((key, index) => ({ ...key, archived: index % 2 === 0 })),
    );
  });

  it('throws the typed throttling error, mapped to 429 RATE_LIMITS, when keys stay unprocessed through every retry', async () => {
    const calls = { keys: [] as number[] };
    const failure = await intercepted(
      unprocessBatchGets(() => 0, calls),
      () => batchGetAll(keys.slice(0, 5)),
    ).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(DatabaseThrottledError);
    expect(failure).toMatchObject({ unprocessed: 5 });
    expect(calls.keys).toEqual(Array(unprocessedRetryPolicy.attempts).fill(5));
    expect(errorBody(toAppError(failure), 'correlation')).toMatchObject({
      statusCode: 429,
      body: { status: 'error', category: 'RATE_LIMITS', errorType: 'RATE_LIMIT', policyName: 'TEN_SECONDLY_ROLLING' },
    });
  });

  it('gets through a throttled attempt (the SDK retries it) and surfaces a throttle that outlasts the retries as 429', async () => {
    let throttles = 1;
    const throttle: Middleware = (next) => async (args) => {
      if (throttles <= 0) return next(args);
      throttles -= 1;
      throw new ProvisionedThroughputExceededException({ message: 'throttled', $metadata: { httpStatusCode: 400 } });
    };
    const items = await intercepted(throttle, () => batchGetAll(keys.slice(0, 4)), 'deserialize');
    expect({ read: items.length, throttles }).toEqual({ read: 4, throttles: 0 });

    throttles = await db.config.maxAttempts();
    const failure = await intercepted(throttle, () => batchGetAll(keys.slice(0, 4)), 'deserialize').catch(
      (error: unknown) => error,
    );
    expect({ throttles, status: toAppError(failure).status, category: toAppError(failure).category }).toEqual({
      throttles: 0,
      status: 429,
      category: 'RATE_LIMITS',
    });
  });
});

describe('batchDeleteAll', () => {
  it('deletes any number of items, resending what the database left unprocessed', async () => {
    const pk = partition('delete');
    const keys = await putItems(pk, 60);
    const sent: number[] = [];
    // Lets the real BatchWriteItem apply only the first 10 deletes and reports the rest unprocessed.
    const partial: Middleware = (next) => async (args) => {
      const requests = (args.input as { RequestItems?: Record<string, Item[]> }).RequestItems?.[tableName];
      if (!requests) return next(args);
      sent.push(requests.length);
      const answer = await next({
        ...args,
        input: { ...args.input, RequestItems: { [tableName]: requests.slice(0, 10) } },
      });
      const rest = requests.slice(10);
      (answer.output as Item).UnprocessedItems = rest.length > 0 ? { [tableName]: rest } : {};
      return answer;
    };
    await intercepted(partial, () => batchDeleteAll(keys));

    expect(await queryAll(pk, 'ITEM#')).toEqual([]);
    expect(sent).toEqual([25, 15, 5, 25, 15, 5, 10]);
  });
});

describe('queryAll', () => {
  it('follows every page of a partition prefix', async () => {
    const pk = partition('query');
    await putItems(pk, 7);
    await db.send(new PutCommand({ TableName: tableName, Item: { pk, sk: 'OTHER#1' } }));
    let pages = 0;
    // Real pagination: every Query is limited to 2 items, so the database answers with LastEvaluatedKey.
    const smallPages: Middleware = (next) => async (args) => {
      if (!('KeyConditionExpression' in args.input)) return next(args);
      pages += 1;
      return next({ ...args, input: { ...args.input, Limit: 2 } });
    };
    const items = await intercepted(smallPages, () => queryAll(pk, 'ITEM#'));

    expect(items.map((item) => item.index)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(pages).toBe(4);
  });
});

describe('queryPages and queryPage', () => {
  it('follow pages of the asked size with a filter and a projection, and continue after a start key', async () => {
    const pk = partition('pages');
    await putItems(pk, 9, (index) => ({ even: index % 2 === 0, payload: 'p' }));
    const pages: Item[][] = [];
    for await (const page of queryPages({
      pk,
      skPrefix: 'ITEM#',
      pageSize: 4,
      filter: '#even = :yes',
      projection: '#index',
      names: { '#even': 'even', '#index': 'index' },
      values: { ':yes': true },
    }))
      pages.push(page);
    // The limit counts items read before the filter: pages of 4, 4 and 1 read, the even ones kept.
    expect(pages.map((page) => page.map((item) => item.index))).toEqual([[0, 2], [4, 6], [8]]);
    expect(pages.flat().every((item) => Object.keys(item).join() === 'index')).toBe(true);

    const first = await queryPage({ pk, skPrefix: 'ITEM#', pageSize: 3 });
    expect(first.items.map((item) => item.index)).toEqual([0, 1, 2]);
    const next = await queryPage({ pk, skPrefix: 'ITEM#', pageSize: 100 }, { pk, sk: String(first.items[2]?.sk) });
    expect(next.items.map((item) => item.index)).toEqual([3, 4, 5, 6, 7, 8]);
    expect(next.nextKey).toBeUndefined();
  });
});

describe('getItem', () => {
  it('reads one item by its key, undefined when absent', async () => {
    const pk = partition('get');
    await putItems(pk, 1, () => ({ value: 'one' }));
    expect(await getItem({ pk, sk: 'ITEM#0000' })).toMatchObject({ pk, sk: 'ITEM#0000', value: 'one' });
    expect(await getItem({ pk, sk: 'ITEM#0001' }, false)).toBeUndefined();
  });
});

describe('repositories through the core', () => {
  // A hub id no account has: these items are written straight to the table.
  const hubId = 990000000 + Math.floor(Math.random() * 9000000);

  it('findRecords returns every record when the database holds keys back', async () => {
    const ids = Array.from({ length: 130 }, (_, index) => String(1000000000000000 + index));
    for (const id of ids)
      await db.send(
        new PutCommand({
          TableName: tableName,
          Item: { ...recordKey(companyKeys, hubId, id), id, properties: {}, version: 1 },
        }),
      );
    const calls = { keys: [] as number[] };
    const found = await intercepted(
      unprocessBatchGets(() => 40, calls),
      () => findRecords(companyObjectType, hubId, ids),
    );

    expect([...found.keys()].sort()).toEqual(ids);
    expect(calls.keys).toEqual([100, 60, 20, 30]);
  });

  it('scanSearchProjection reads every page of every shard in short pages, a bounded number of chains at once, skipping strays', async () => {
    // 3 companies per shard, and one item left in a shard that is not its home (an older shard count).
    const ids = Array.from({ length: searchShards * 3 }, (_, index) => String(2000000000000000 + index));
    for (const id of ids) {
      const put = searchProjectionPut(
        companyObjectType,
        hubId,
        { id, v: { name: `company ${id}` }, l: {}, n: {} },
        1,
      ).Put;
      await db.send(new PutCommand({ TableName: tableName, Item: put?.Item ?? {} }));
    }
    const strayId = String(2000000000000000 + searchShards * 10 + 1);
    const strayShard = (searchShardOf(strayId) + 1) % searchShards;
    await db.send(
      new PutCommand({
        TableName: tableName,
        Item: { pk: searchPartition(companyKeys, hubId, strayShard), sk: strayId, v: { name: 'stale' } },
      }),
    );
    let pages = 0;
    let inFlight = 0;
    let mostInFlight = 0;
    const limits = new Set<unknown>();
    const smallPages: Middleware = (next) => async (args) => {
      if (!('KeyConditionExpression' in args.input)) return next(args);
      pages += 1;
      limits.add(args.input.Limit);
      inFlight += 1;
      mostInFlight = Math.max(mostInFlight, inFlight);
      try {
        return await next({ ...args, input: { ...args.input, Limit: 2 } });
      } finally {
        inFlight -= 1;
      }
    };
    const forms: SearchForms[] = [];
    const queries = await intercepted(smallPages, () =>
      scanSearchProjection(
        companyObjectType,
        hubId,
        { projectionExpression: 'sk, v', names: {}, values: {} },
        new AbortController().signal,
        (page) => {
          forms.push(...page);
        },
      ),
    );

    expect(forms.map((form) => form.id).sort()).toEqual(ids);
    expect(forms.every((form) => form.v.name === `company ${form.id}`)).toBe(true);
    expect([...limits]).toEqual([searchPageItems]);
    expect(mostInFlight).toBe(Math.min(searchChainsInFlight, searchShards));
    // 3 items per shard in pages of 2: a full page and a last one of 1; the stray's shard holds 4, two full pages and the empty one that ends the chain.
    expect({ queries, pages }).toEqual({ queries: searchShards * 2 + 1, pages: searchShards * 2 + 1 });
  });
});

describe('putNew', () => {
  it('puts a new item, refuses an existing one, and recognizes its own write when the answer was lost', async () => {
    const pk = partition('put-new');
    expect(await putNew({ pk, sk: 'A', value: 1 })).toBe(true);
    expect(await putNew({ pk, sk: 'A', value: 2 })).toBe(false);

    // The first send succeeds but its answer is lost; the retry (the same request) finds our own item.
    let sends = 0;
    const lostAnswer: Middleware = (next) => async (args) => {
      sends += 1;
      await next(args);
      return next(args);
    };
    expect(await intercepted(lostAnswer, () => putNew({ pk, sk: 'B', value: 3 }))).toBe(true);
    expect(sends).toBe(1);

    const stored = await db.send(new GetCommand({ TableName: tableName, Key: { pk, sk: 'A' } }));
    expect(stored.Item?.value).toBe(1);
  });
});

describe('transact', () => {
  it('commits all writes, or returns the cancellation reasons by the role of each failed write', async () => {
    const pk = partition('transact');
    const put = (sk: string, owner: string) => ({
      Put: {
        TableName: tableName,
        Item: { pk, sk, owner },
        ConditionExpression: 'attribute_not_exists(pk)',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
      },
    });
    expect(await transact([{ role: 'first', write: put('taken', 'first owner') }])).toEqual({ committed: true });

    const outcome = await transact([
      { role: { kind: 'fresh' }, write: put('fresh', 'second owner') },
      { role: { kind: 'claim', name: 'taken' }, write: put('taken', 'second owner') },
    ]);
    expect(outcome.committed).toBe(false);
    if (outcome.committed) return;
    expect(outcome.reasons.map(({ role, code }) => ({ role, code }))).toEqual([
      { role: { kind: 'claim', name: 'taken' }, code: 'ConditionalCheckFailed' },
    ]);
    expect(stringAttribute(outcome.reasons[0]?.item, 'owner')).toBe('first owner');
    expect(outcome.error).toMatchObject({ name: 'TransactionCanceledException' });
    // Nothing of the canceled transaction was written.
    expect((await db.send(new GetCommand({ TableName: tableName, Key: { pk, sk: 'fresh' } }))).Item).toBeUndefined();
  });

  it('transactAll writes all or nothing and throws the cancellation', async () => {
    const pk = partition('transact-all');
    const put = (sk: string) => ({
      Put: { TableName: tableName, Item: { pk, sk }, ConditionExpression: 'attribute_not_exists(pk)' },
    });
    await transactAll([put('one')]);
    await expect(transactAll([put('two'), put('one')])).rejects.toMatchObject({ name: 'TransactionCanceledException' });
    expect(await queryAll(pk, 'o')).toEqual([{ pk, sk: 'one' }]);
    expect(await getItem({ pk, sk: 'two' })).toBeUndefined();
  });

  it('throws errors that are not a cancellation', async () => {
    const pk = partition('transact-invalid');
    const write = { Put: { TableName: tableName, Item: { pk, sk: 'same' } } };
    // Two writes to one item are rejected before any condition is evaluated.
    await expect(
      transact([
        { role: 1, write },
        { role: 2, write },
      ]),
    ).rejects.toMatchObject({ name: 'ValidationException' });
  });
});
