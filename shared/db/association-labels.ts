import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AssociationType } from '../associations/association-types';
import { db, tableName } from './client';
import { withoutKeys } from './item';
import { associationLabelKey, associationLabelPrefix, associationTypeKey, hubCounterKey } from './keys';

/** Custom type ids start above every standard id, so the two can never meet. */
const firstCustomTypeId = 1000;

export async function listCustomAssociationTypes(hubId: number, fromObjectTypeId: string, toObjectTypeId: string): Promise<AssociationType[]> {
  const found: AssociationType[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await db.send(new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': associationTypeKey(hubId, 0).pk, ':prefix': associationLabelPrefix(fromObjectTypeId, toObjectTypeId) },
      ExclusiveStartKey: startKey,
      ConsistentRead: true,
    }));
    found.push(...(result.Items ?? []).map((item) => withoutKeys<AssociationType>(item)));
    startKey = result.LastEvaluatedKey;
  } while (startKey);
  return found.sort((a, b) => a.typeId - b.typeId);
}

export async function findCustomAssociationType(hubId: number, typeId: number): Promise<AssociationType | undefined> {
  const result = await db.send(new GetCommand({ TableName: tableName, Key: associationTypeKey(hubId, typeId), ConsistentRead: true }));
  return result.Item ? withoutKeys<AssociationType>(result.Item) : undefined;
}

/** Reserves `count` consecutive type ids of the hub and returns the first. */
export async function allocateAssociationTypeIds(hubId: number, count: number): Promise<number> {
  const result = await db.send(new UpdateCommand({
    TableName: tableName,
    Key: hubCounterKey(hubId, 'associationTypeId'),
    UpdateExpression: 'SET #v = if_not_exists(#v, :start) + :count',
    ExpressionAttributeNames: { '#v': 'value' },
    ExpressionAttributeValues: { ':start': firstCustomTypeId - 1, ':count': count },
    ReturnValues: 'UPDATED_NEW',
  }));
  const last = result.Attributes?.value;
  if (typeof last !== 'number') throw new Error('association type counter returned no value');
  return last - count + 1;
}

/** The label items (listed per pair) and the id pointers (found by id alone), all or nothing. */
export async function insertCustomAssociationTypes(hubId: number, types: readonly AssociationType[]): Promise<void> {
  await db.send(new TransactWriteCommand({
    TransactItems: types.flatMap((type) => [
      { Put: { TableName: tableName, Item: { ...associationLabelKey(hubId, type.fromObjectTypeId, type.toObjectTypeId, type.typeId), ...type }, ConditionExpression: 'attribute_not_exists(pk)' } },
      { Put: { TableName: tableName, Item: { ...associationTypeKey(hubId, type.typeId), ...type }, ConditionExpression: 'attribute_not_exists(pk)' } },
    ]),
  }));
}

/** Changes the label (or marks the type deleted) on both items of each type, all or nothing. */
export async function updateCustomAssociationTypes(hubId: number, changes: readonly { type: AssociationType; label?: string; archived?: boolean }[]): Promise<void> {
  await db.send(new TransactWriteCommand({
    TransactItems: changes.flatMap(({ type, label, archived }) => {
      const sets = [...(label === undefined ? [] : ['#label = :label']), ...(archived ? ['archived = :archived'] : [])];
      const update = {
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: 'attribute_exists(pk)',
        ...(label === undefined ? {} : { ExpressionAttributeNames: { '#label': 'label' } }),
        ExpressionAttributeValues: { ...(label === undefined ? {} : { ':label': label }), ...(archived ? { ':archived': true } : {}) },
      };
      return [
        { Update: { TableName: tableName, Key: associationLabelKey(hubId, type.fromObjectTypeId, type.toObjectTypeId, type.typeId), ...update } },
        { Update: { TableName: tableName, Key: associationTypeKey(hubId, type.typeId), ...update } },
      ];
    }),
  }));
}
