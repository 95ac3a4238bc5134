import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from './client';
import { conditionalWrite, getItem } from './core';
import { associationLimitsKey } from './keys';

/** One configured limit: at most `max` records of the to-type per record of the from-type, through one association type. */
export interface StoredAssociationLimit {
  category: string;
  max: number;
}

/** `${fromObjectTypeId}/${toObjectTypeId}/${typeId}` -> the limit. */
export type StoredAssociationLimits = Record<string, StoredAssociationLimit>;

export interface AssociationLimitsItem {
  limits: StoredAssociationLimits;
  /** Undefined when the account has never configured a limit (no item). */
  version: number | undefined;
}

export const associationLimitKey = (fromObjectTypeId: string, toObjectTypeId: string, typeId: number): string =>
  `${fromObjectTypeId}/${toObjectTypeId}/${typeId}`;

/** The account's configurations: one strongly consistent GetItem. */
export async function findAssociationLimits(hubId: number): Promise<AssociationLimitsItem> {
  const item = await getItem(associationLimitsKey(hubId));
  if (!item) return { limits: {}, version: undefined };
  const limits = (item.limits as StoredAssociationLimits | undefined) ?? {};
  return { limits, version: typeof item.version === 'number' ? item.version : 0 };
}

/**
 * Replaces the account's configurations, on condition that the item is still at the version read
 * (or still absent): false when another request changed it meanwhile (the caller reads again).
 */
export async function replaceAssociationLimits(
  hubId: number,
  limits: StoredAssociationLimits,
  expectedVersion: number | undefined,
): Promise<boolean> {
  const outcome = await conditionalWrite(
    new PutCommand({
      TableName: tableName,
      Item: { ...associationLimitsKey(hubId), limits, version: (expectedVersion ?? 0) + 1 },
      ...(expectedVersion === undefined
        ? { ConditionExpression: 'attribute_not_exists(pk)' }
        : { ConditionExpression: 'version = :expected', ExpressionAttributeValues: { ':expected': expectedVersion } }),
    }),
  );
  return outcome.written;
}
