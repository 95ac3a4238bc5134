import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { isConditionalCheckFailed } from './item';

/** The write id of the item a failed conditional put found (the error carries it marshalled). */
function writeIdOf(error: unknown): string | undefined {
  const found = (error as { Item?: Record<string, unknown> }).Item?.writeId;
  if (typeof found === 'string') return found;
  const marshalled = (found as { S?: unknown } | undefined)?.S;
  return typeof marshalled === 'string' ? marshalled : undefined;
}

/**
 * Puts an item that must not exist yet; false when one with its key does. A put can succeed and
 * its answer be lost (a timeout); the SDK's retry then finds the item. The write id, returned
 * with the failed condition, tells our own first attempt from another request's item.
 * (Transactions get the same from the ClientRequestToken the SDK adds.)
 */
export async function putNewItem(item: Record<string, unknown>): Promise<boolean> {
  const writeId = randomUUID();
  try {
    await db.send(new PutCommand({
      TableName: tableName, Item: { ...item, writeId }, ConditionExpression: 'attribute_not_exists(pk)',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    }));
    return true;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return writeIdOf(error) === writeId;
    throw error;
  }
}
