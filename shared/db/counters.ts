import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import type { TransactItem } from './core';
import { counterKey, type Key } from './keys';

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

/** The change of a count item that goes with writing the items it counts, in the same transaction. */
export interface CountChange {
  key: Key;
  /** The attribute that holds the count. */
  attribute: string;
  /** What the count moves by (negative when items go). */
  delta: number;
  /** An increase fails the transaction rather than take the count past `max`: concurrent writers never pass it. */
  max?: number;
  /** A decrease fails the transaction rather than take the count below zero. */
  neverBelowZero?: boolean;
  /** The count item must exist already (it fails the transaction otherwise). */
  itemMustExist?: boolean;
  /** A failed condition returns the item as it was (ReturnValuesOnConditionCheckFailure ALL_OLD). */
  returnOldOnFailure?: boolean;
}

/** One `ADD` of a count, with the conditions a CountChange asks for, as a transaction's Update. */
export function countChange(change: CountChange): TransactItem {
  const conditions: string[] = [];
  const values: Record<string, number> = { ':delta': change.delta };
  if (change.itemMustExist) conditions.push('attribute_exists(pk)');
  if (change.max !== undefined && change.delta > 0) {
    conditions.push(change.itemMustExist ? '#count <= :room' : '(attribute_not_exists(#count) OR #count <= :room)');
    values[':room'] = change.max - change.delta;
  }
  if (change.neverBelowZero && change.delta < 0) {
    conditions.push('#count >= :need');
    values[':need'] = -change.delta;
  }
  return {
    Update: {
      TableName: tableName,
      Key: change.key,
      UpdateExpression: 'ADD #count :delta',
      ExpressionAttributeNames: { '#count': change.attribute },
      ExpressionAttributeValues: values,
      ...(conditions.length > 0 ? { ConditionExpression: conditions.join(' AND ') } : {}),
      ...(change.returnOldOnFailure ? { ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const } : {}),
    },
  };
}
