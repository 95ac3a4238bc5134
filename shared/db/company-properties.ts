import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { PropertyDefinition, PropertyGroup } from '../properties/property-definition';
import { db, tableName } from './client';
import { isConditionalCheckFailed, withoutKeys } from './item';
import { putNewItem } from './put-new-item';
import { companyPropertyGroupKey, companyPropertyGroupPrefix, companyPropertyKey, companyPropertyPrefix, type Key } from './keys';

/** Returns false when a property of that name already exists in the hub. */
export async function insertCompanyProperty(hubId: number, definition: PropertyDefinition): Promise<boolean> {
  return putNewItem({ ...companyPropertyKey(hubId, definition.name), ...definition });
}

export async function findCompanyProperty(hubId: number, name: string): Promise<PropertyDefinition | undefined> {
  const result = await db.send(new GetCommand({ TableName: tableName, Key: companyPropertyKey(hubId, name), ConsistentRead: true }));
  return result.Item ? withoutKeys<PropertyDefinition>(result.Item) : undefined;
}

async function queryAll<T extends object>(hubId: number, prefix: string): Promise<T[]> {
  const found: T[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await db.send(new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': companyPropertyKey(hubId, '').pk, ':prefix': prefix },
      ExclusiveStartKey: startKey,
      ConsistentRead: true,
    }));
    found.push(...(result.Items ?? []).map((item) => withoutKeys<T>(item)));
    startKey = result.LastEvaluatedKey;
  } while (startKey);
  return found;
}

/** Every custom company property of the hub (archived ones too), in name order. */
export async function listCompanyProperties(hubId: number): Promise<PropertyDefinition[]> {
  return queryAll<PropertyDefinition>(hubId, companyPropertyPrefix);
}

/**
 * Replaces an item read earlier; false when another request changed it since (its updatedAt
 * moved) or it is gone.
 */
async function replaceItem(key: Key, item: object, expectedUpdatedAt: string | undefined): Promise<boolean> {
  try {
    await db.send(new PutCommand({
      TableName: tableName, Item: { ...key, ...item }, ConditionExpression: 'updatedAt = :expected',
      ExpressionAttributeValues: { ':expected': expectedUpdatedAt ?? '' },
    }));
    return true;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return false;
    throw error;
  }
}

export async function replaceCompanyProperty(hubId: number, definition: PropertyDefinition, expectedUpdatedAt: string | undefined): Promise<boolean> {
  return replaceItem(companyPropertyKey(hubId, definition.name), definition, expectedUpdatedAt);
}

export async function insertPropertyGroup(hubId: number, group: PropertyGroup): Promise<boolean> {
  return putNewItem({ ...companyPropertyGroupKey(hubId, group.name), ...group });
}

export async function findPropertyGroup(hubId: number, name: string): Promise<PropertyGroup | undefined> {
  const result = await db.send(new GetCommand({ TableName: tableName, Key: companyPropertyGroupKey(hubId, name), ConsistentRead: true }));
  return result.Item ? withoutKeys<PropertyGroup>(result.Item) : undefined;
}

export async function listPropertyGroups(hubId: number): Promise<PropertyGroup[]> {
  return queryAll<PropertyGroup>(hubId, companyPropertyGroupPrefix);
}

export async function replacePropertyGroup(hubId: number, group: PropertyGroup, expectedUpdatedAt: string | undefined): Promise<boolean> {
  return replaceItem(companyPropertyGroupKey(hubId, group.name), group, expectedUpdatedAt);
}
