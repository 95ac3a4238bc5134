import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { PropertyDefinition } from '../properties/property-definition';
import { db, tableName } from './client';
import { withoutKeys } from './item';
import { putNewItem } from './put-new-item';
import { companyPropertyKey, companyPropertyPrefix } from './keys';

/** Returns false when a property of that name already exists in the hub. */
export async function insertCompanyProperty(hubId: number, definition: PropertyDefinition): Promise<boolean> {
  return putNewItem({ ...companyPropertyKey(hubId, definition.name), ...definition });
}

export async function findCompanyProperty(hubId: number, name: string): Promise<PropertyDefinition | undefined> {
  const result = await db.send(new GetCommand({ TableName: tableName, Key: companyPropertyKey(hubId, name), ConsistentRead: true }));
  return result.Item ? withoutKeys<PropertyDefinition>(result.Item) : undefined;
}

/** Every custom company property of the hub, in name order. */
export async function listCompanyProperties(hubId: number): Promise<PropertyDefinition[]> {
  const found: PropertyDefinition[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await db.send(new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': companyPropertyKey(hubId, '').pk, ':prefix': companyPropertyPrefix },
      ExclusiveStartKey: startKey,
      ConsistentRead: true,
    }));
    found.push(...(result.Items ?? []).map((item) => withoutKeys<PropertyDefinition>(item)));
    startKey = result.LastEvaluatedKey;
  } while (startKey);
  return found;
}
