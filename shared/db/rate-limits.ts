import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { rateLimitKey } from './keys';

/**
 * The limiter's one item per subject holds a counter per time bucket, as attributes named
 * b<bucket number>. Counting is one UpdateItem (ADD to one or more buckets) that returns every
 * live counter; the caller decides from them. Buckets it saw as stale are removed by its next
 * update of the same item, and the item expires (TTL) once the subject goes quiet.
 */
const bucketPrefix = 'b';

/** Stale bucket attributes seen per item by this instance, removed by its next update. */
const staleByItem = new Map<string, string[]>();
const maxTrackedItems = 10_000;

/**
 * Adds each amount to its bucket in one atomic update and returns every counter after it. A call
 * that adds to the current bucket (a positive amount first) also removes the stale buckets this
 * instance saw last time; a call that only gives permits back does not.
 */
export async function addToBuckets(policy: string, subject: string, amounts: ReadonlyMap<number, number>, ttlSeconds: number): Promise<Map<number, number>> {
  const key = rateLimitKey(policy, subject);
  const added = [...amounts].filter(([, amount]) => amount !== 0);
  const addedNames = new Set(added.map(([bucket]) => `${bucketPrefix}${bucket}`));
  const isClaim = added.some(([, amount]) => amount > 0);
  const stale = isClaim ? (staleByItem.get(key.pk) ?? []).filter((name) => !addedNames.has(name)) : [];
  const names: Record<string, string> = { '#ttl': 'ttl' };
  const values: Record<string, number> = { ':ttl': ttlSeconds };
  added.forEach(([bucket, amount], index) => {
    names[`#b${index}`] = `${bucketPrefix}${bucket}`;
    values[`:a${index}`] = amount;
  });
  stale.forEach((name, index) => { names[`#s${index}`] = name; });
  const result = await db.send(new UpdateCommand({
    TableName: tableName,
    Key: key,
    UpdateExpression: `ADD ${added.map((_, index) => `#b${index} :a${index}`).join(', ')} SET #ttl = :ttl${stale.length > 0 ? ` REMOVE ${stale.map((_, index) => `#s${index}`).join(', ')}` : ''}`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ReturnValues: 'ALL_NEW',
  }));
  const counters = new Map<number, number>();
  for (const [name, value] of Object.entries(result.Attributes ?? {})) {
    if (name.startsWith(bucketPrefix) && typeof value === 'number') counters.set(Number(name.slice(bucketPrefix.length)), value);
  }
  return counters;
}

/** Remembers the bucket numbers that have left the window, for the next update of the item to remove. */
export function rememberStaleBuckets(policy: string, subject: string, buckets: number[]): void {
  const { pk } = rateLimitKey(policy, subject);
  staleByItem.delete(pk);
  if (buckets.length === 0) return;
  if (staleByItem.size >= maxTrackedItems) staleByItem.delete(staleByItem.keys().next().value ?? '');
  staleByItem.set(pk, buckets.slice(0, 50).map((bucket) => `${bucketPrefix}${bucket}`));
}
