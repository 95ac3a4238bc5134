/** Drops the key and bookkeeping attributes so repositories return plain domain objects. */
export function withoutKeys<T extends object>(item: Record<string, unknown>): T {
  const { pk, sk, ttl, writeId, ...rest } = item;
  void pk;
  void sk;
  void ttl;
  void writeId;
  return rest as T;
}

/**
 * An item's size as DynamoDB counts it, estimated from above: its JSON in UTF-8 bytes. DynamoDB
 * counts attribute names and values; JSON adds quotes, colons and commas around each, which more
 * than covers the byte or two DynamoDB adds per number, list and map.
 */
export function itemBytes(item: Record<string, unknown>): number {
  return Buffer.byteLength(JSON.stringify(item));
}

/** One request of a BatchWriteItem. */
export type WriteRequest =
  | { DeleteRequest: { Key: Record<string, unknown> } }
  | { PutRequest: { Item: Record<string, unknown> } };

/** DynamoDB's limit of requests in one BatchWriteItem. */
export const maxBatchWriteRequests = 25;
