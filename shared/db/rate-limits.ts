import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { ExpressionPlaceholders } from './core';
import { rateLimitKey } from './keys';

/**
 * The limiter's one item per subject holds a counter per time bucket, as attributes named
 * b<bucket number>. Counting is one UpdateItem (ADD to one or more buckets) that returns every
 * live counter; the caller decides from them, and names the buckets it saw leave the window for
 * its next update to remove. The item expires (TTL) once the subject goes quiet.
 */
const bucketPrefix = 'b';
/** Stale buckets one update removes at most (the rest wait for a later one). */
const maxRemovedPerUpdate = 50;

/**
 * Adds each amount to its bucket and removes the `stale` buckets (never one it adds to) in one
 * atomic update, and returns every counter after it.
 */
export async function addToBuckets(
  policy: string,
  subject: string,
  amounts: ReadonlyMap<number, number>,
  ttlSeconds: number,
  stale: readonly number[] = [],
): Promise<Map<number, number>> {
  const added = [...amounts].filter(([, amount]) => amount !== 0);
  const removed = stale.filter((bucket) => !amounts.has(bucket)).slice(0, maxRemovedPerUpdate);
  const placeholders = new ExpressionPlaceholders();
  const adds = added.map(
    ([bucket, amount]) => `${placeholders.name(`${bucketPrefix}${bucket}`)} ${placeholders.value(amount)}`,
  );
  const removes = removed.map((bucket) => placeholders.name(`${bucketPrefix}${bucket}`));
  const result = await db.send(
    new UpdateCommand({
      TableName: tableName,
      Key: rateLimitKey(policy, subject),
      UpdateExpression: `ADD ${adds.join(', ')} SET #ttl = :ttl${removes.length > 0 ? ` REMOVE ${removes.join(', ')}` : ''}`,
      ...placeholders.attributes({ names: { '#ttl': 'ttl' }, values: { ':ttl': ttlSeconds } }),
      ReturnValues: 'ALL_NEW',
    }),
  );
  const counters = new Map<number, number>();
  for (const [name, value] of Object.entries(result.Attributes ?? {})) {
    if (name.startsWith(bucketPrefix) && typeof value === 'number')
      counters.set(Number(name.slice(bucketPrefix.length)), value);
  }
  return counters;
}
