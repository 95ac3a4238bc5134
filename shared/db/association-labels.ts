import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { entity, getItem, queryAll, transactAll } from './core';
import { associationLabelKey, associationLabelPrefix, associationTypeKey, hubCounterKey, hubPartition } from './keys';

export type AssociationCategory = 'HUBSPOT_DEFINED' | 'USER_DEFINED';

/** One direction of an association type: from one object type to another. */
export interface AssociationType {
  typeId: number;
  category: AssociationCategory;
  fromObjectTypeId: string;
  toObjectTypeId: string;
  /** Null for unlabeled types, as the labels API returns them. */
  label: string | null;
  /** The v3 `type` string of an association result, e.g. company_to_contact_unlabeled. */
  name: string;
  /** The type of the same association seen from the other record. */
  inverseTypeId: number;
  inverseName: string;
  /** A primary type also implies this unlabeled type (DOC-ASSOC). */
  impliesTypeId?: number;
  /** A deleted custom label: kept so stored associations of the type still read (as the pair's unlabeled type). */
  archived?: boolean;
}

/** A custom type is stored twice: listed per object pair (label item) and found by id alone (type item). */
const labelItem = /* @__PURE__ */ entity<AssociationType, number>({ key: (type, hubId) => associationLabelKey(hubId, type.fromObjectTypeId, type.toObjectTypeId, type.typeId) });
const typeItem = /* @__PURE__ */ entity<AssociationType, number>({ key: (type, hubId) => associationTypeKey(hubId, type.typeId) });

/** Custom type ids start above every standard id, so the two can never meet. */
const firstCustomTypeId = 1000;

export async function listCustomAssociationTypes(hubId: number, fromObjectTypeId: string, toObjectTypeId: string): Promise<AssociationType[]> {
  const found = (await queryAll(hubPartition(hubId), associationLabelPrefix(fromObjectTypeId, toObjectTypeId))).map(labelItem.read);
  return found.sort((a, b) => a.typeId - b.typeId);
}

export async function findCustomAssociationType(hubId: number, typeId: number): Promise<AssociationType | undefined> {
  const item = await getItem(associationTypeKey(hubId, typeId));
  return item ? typeItem.read(item) : undefined;
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
  await transactAll(types.flatMap((type) => [
    { Put: { TableName: tableName, Item: labelItem.item(type, hubId), ConditionExpression: 'attribute_not_exists(pk)' } },
    { Put: { TableName: tableName, Item: typeItem.item(type, hubId), ConditionExpression: 'attribute_not_exists(pk)' } },
  ]));
}

/** Changes the label (or marks the type deleted) on both items of each type, all or nothing. */
export async function updateCustomAssociationTypes(hubId: number, changes: readonly { type: AssociationType; label?: string; archived?: boolean }[]): Promise<void> {
  await transactAll(changes.flatMap(({ type, label, archived }) => {
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
  }));
}
