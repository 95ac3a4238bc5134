import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, dynamoCallCounter, tableName } from '../../../shared/db/client';
import { batchGetAll, batchPutAll, type Item } from '../../../shared/db/core';

/**
 * The call counter against the real DynamoDB Local: an interceptor on the real client lets every
 * batch reach the database and reports part of its answer as unprocessed, as DynamoDB does under
 * load; the counter must tell those retries apart from the calls an operation makes.
 */
type Middleware = (
  next: (args: { input: Item }) => Promise<{ output: Item }>,
) => (args: { input: Item }) => Promise<{ output: Item }>;

async function intercepted<T>(middleware: Middleware, body: () => Promise<T>): Promise<T> {
  const name = `clientTestInterceptor-${randomUUID()}`;
  (db.middlewareStack as unknown as { add: (m: Middleware, o: object) => void }).add(middleware, {
    step: 'initialize',
    name,
  });
  try {
    return await body();
  } finally {
    db.middlewareStack.remove(name);
  }
}

/** The first `times` batch answers keep one key or write and report the rest as unprocessed. */
function holdBack(times: number): Middleware {
  let answered = 0;
  return (next) => async (args) => {
    const answer = await next(args);
    const output = answer.output as {
      Responses?: Record<string, Item[]>;
      UnprocessedKeys?: Record<string, { Keys?: Item[] }>;
      UnprocessedItems?: Record<string, Item[]>;
    };
    const requests = (args.input as { RequestItems?: Record<string, Item[] | { Keys: Item[] }> }).RequestItems?.[
      tableName
    ];
    if (!requests || answered >= times) return answer;
    answered += 1;
    if (Array.isArray(requests)) {
      // BatchWriteItem: the held writes were written; writing them again changes nothing.
      if (requests.length > 1) output.UnprocessedItems = { [tableName]: requests.slice(1) };
    } else {
      const read = output.Responses?.[tableName] ?? [];
      output.Responses = { [tableName]: read.slice(0, 1) };
      const held = read.slice(1).map((item) => ({ pk: item.pk, sk: item.sk }));
      if (held.length > 0) output.UnprocessedKeys = { [tableName]: { ...requests, Keys: held } };
    }
    return answer;
  };
}

const pk = `CLIENTTEST#${randomUUID()}`;
const keys = [0, 1, 2].map((index) => ({ pk, sk: `ITEM#${index}` }));

beforeAll(async () => {
  for (const key of keys) await db.send(new PutCommand({ TableName: tableName, Item: { ...key } }));
});

describe('dynamoCallCounter', () => {
  it('counts the batch reads that only retried unprocessed keys apart', async () => {
    dynamoCallCounter.reset();
    const items = await intercepted(holdBack(2), () => batchGetAll(keys));
    expect(items).toHaveLength(3);
    expect(Object.fromEntries(dynamoCallCounter.calls)).toEqual({ BatchGetItemCommand: 3 });
    expect(Object.fromEntries(dynamoCallCounter.unprocessedRetries)).toEqual({ BatchGetItemCommand: 2 });
    expect(dynamoCallCounter.callsApartFromRetries()).toEqual({ BatchGetItemCommand: 1 });
    expect([dynamoCallCounter.total(), dynamoCallCounter.totalApartFromRetries()]).toEqual([3, 1]);
  });

  it('counts the batch writes that only retried unprocessed items apart', async () => {
    dynamoCallCounter.reset();
    await intercepted(holdBack(1), () => batchPutAll(keys.map((key) => ({ ...key, written: true }))));
    expect(Object.fromEntries(dynamoCallCounter.calls)).toEqual({ BatchWriteItemCommand: 2 });
    expect(dynamoCallCounter.callsApartFromRetries()).toEqual({ BatchWriteItemCommand: 1 });
  });

  it('counts nothing apart when every batch is processed at once', async () => {
    dynamoCallCounter.reset();
    await batchGetAll(keys);
    expect(dynamoCallCounter.unprocessedRetries.size).toBe(0);
    expect(dynamoCallCounter.callsApartFromRetries()).toEqual({ BatchGetItemCommand: 1 });
  });
});
