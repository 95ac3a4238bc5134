import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from './client';
import { conditionalWrite } from './core';
import { listKey } from './keys';

/**
 * A DYNAMIC list's scheduled conversion to a static list, as stored on the list's item (attribute
 * `conversion`): the request as sent, plus when it falls due. CONVERSION_DATE: `conversionAtMs`, 00:00
 * UTC of that day (epoch ms). INACTIVITY: `offsetMs`, the period without membership changes that
 * converts the list (a DAY 86,400,000 ms, a WEEK 7 days, a MONTH 30 days). `convertedAt` (ISO time) is
 * written by whatever converts the list, when it does.
 */
export type StoredListConversion = (
  | { conversionType: 'CONVERSION_DATE'; day: number; month: number; year: number; conversionAtMs: number }
  | { conversionType: 'INACTIVITY'; offset: number; timeUnit: 'DAY' | 'WEEK' | 'MONTH'; offsetMs: number }
) & { convertedAt?: string };

/**
 * Sets a list's scheduled conversion (or, with undefined, removes it), on a list that exists, is not
 * deleted and is DYNAMIC: false when the list is not so any more (the caller reads it again).
 */
export async function writeListConversion(
  hubId: number,
  listId: string,
  conversion: StoredListConversion | undefined,
): Promise<boolean> {
  const outcome = await conditionalWrite(
    new UpdateCommand({
      TableName: tableName,
      Key: listKey(hubId, listId),
      UpdateExpression: conversion ? 'SET #conversion = :conversion' : 'REMOVE #conversion',
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#deletedAt) AND #type = :dynamic',
      ExpressionAttributeNames: { '#conversion': 'conversion', '#deletedAt': 'deletedAt', '#type': 'processingType' },
      ExpressionAttributeValues: { ':dynamic': 'DYNAMIC', ...(conversion ? { ':conversion': conversion } : {}) },
    }),
  );
  return outcome.written;
}
