import { BatchWriteCommand, type DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { followPages } from '../shared/db/core';
import { toFloorItem } from './dynamo-recorder';

type Item = Record<string, unknown>;

/** Writes items with BatchWriteItem (25 a call, `concurrency` calls in flight), retrying unprocessed ones. */
export async function batchWrite(
  client: DynamoDBDocumentClient,
  tableName: string,
  items: readonly Item[],
  concurrency = 8,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const slice = items.slice(next, next + 25);
      next += 25;
      let pending = slice.map((item) => ({ PutRequest: { Item: item } }));
      for (let attempt = 0; pending.length > 0; attempt += 1) {
        if (attempt > 8) throw new Error('bulk load: items stayed unprocessed after retries');
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt));
        const result = await client.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
        pending = (result.UnprocessedItems?.[tableName] ?? []) as typeof pending;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, () => worker()));
}

/**
 * Copies every item of a table into the floor's key space of the same table (toFloorItem: the
 * partition key behind the prefix), the floor's twin of the service's items. Items already there
 * (the scan meets the copies it wrote) are not copied again.
 */
export async function copyIntoFloorKeys(
  client: DynamoDBDocumentClient,
  tableName: string,
  keyPrefix: string,
): Promise<number> {
  let count = 0;
  for await (const page of followPages((startKey) =>
    client.send(new ScanCommand({ TableName: tableName, ExclusiveStartKey: startKey })),
  )) {
    const items = (page.Items ?? []).filter((item) => !String(item.pk).startsWith(keyPrefix));
    await batchWrite(
      client,
      tableName,
      items.map((item) => toFloorItem(item, keyPrefix)),
    );
    count += items.length;
  }
  return count;
}

/**
 * Items shaped exactly as a create writes them: the Put items of a recorded create transaction,
 * with the template's company id and domain swapped for new ones everywhere they occur.
 */
export function cloneCompanyItems(
  templateItems: readonly Item[],
  template: { id: string; domain: string },
  next: { id: string; domain: string },
): Item[] {
  const json = JSON.stringify(templateItems).replaceAll(template.id, next.id).replaceAll(template.domain, next.domain);
  return JSON.parse(json) as Item[];
}
