import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { counterKey } from './keys';

/** Allocates the next number of a named sequence (admin-rate ids: apps, accounts, users). */
export async function nextSequenceValue(name: string, start: number): Promise<number> {
  const result = await db.send(
    new UpdateCommand({
      TableName: tableName,
      Key: counterKey(name),
      UpdateExpression: 'SET #v = if_not_exists(#v, :start) + :one',
      ExpressionAttributeNames: { '#v': 'value' },
      ExpressionAttributeValues: { ':start': start - 1, ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const value = result.Attributes?.value;
  if (typeof value !== 'number') throw new Error(`counter ${name} returned no value`);
  return value;
}
