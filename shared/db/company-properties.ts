import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { entity, getItem, putNew, queryAll, type Item } from './core';
import { isConditionalCheckFailed } from './item';
import { companyPropertyGroupKey, companyPropertyGroupPrefix, companyPropertyKey, companyPropertyPrefix, hubPartition } from './keys';

/** A property definition of CRM v3 (reference section 9.3): the stored record is the shape the API returns. */
export const propertyTypes = ['string', 'number', 'date', 'datetime', 'enumeration', 'bool', 'phone_number'] as const;
export type PropertyType = (typeof propertyTypes)[number];

export const fieldTypes = [
  'text', 'textarea', 'number', 'date', 'select', 'radio', 'checkbox', 'booleancheckbox', 'phonenumber', 'file', 'html',
  'calculation_equation', 'calculation_rollup',
] as const;
export type FieldType = (typeof fieldTypes)[number];

export interface PropertyOption {
  label: string;
  value: string;
  displayOrder: number;
  hidden: boolean;
  description?: string;
}

export interface PropertyDefinition {
  name: string;
  label: string;
  type: PropertyType;
  fieldType: FieldType;
  description: string;
  groupName: string;
  options: PropertyOption[];
  displayOrder: number;
  calculated: boolean;
  externalOptions: boolean;
  hasUniqueValue: boolean;
  hidden: boolean;
  hubspotDefined?: boolean;
  formField: boolean;
  dataSensitivity: 'non_sensitive';
  modificationMetadata: { archivable: boolean; readOnlyDefinition: boolean; readOnlyValue: boolean };
  referencedObjectType?: string;
  archived: boolean;
  archivedAt?: string;
  createdAt?: string;
  updatedAt?: string;
  createdUserId?: string;
  updatedUserId?: string;
}

/** A property group (PropertyGroup of the v3 properties API); updatedAt is bookkeeping, not sent. */
export interface PropertyGroup {
  name: string;
  label: string;
  displayOrder: number;
  archived: boolean;
  updatedAt?: string;
}

const propertyItem = /* @__PURE__ */ entity<PropertyDefinition, number>({ key: (definition, hubId) => companyPropertyKey(hubId, definition.name) });
const groupItem = /* @__PURE__ */ entity<PropertyGroup, number>({ key: (group, hubId) => companyPropertyGroupKey(hubId, group.name) });

/** Returns false when a property of that name already exists in the hub. */
export async function insertCompanyProperty(hubId: number, definition: PropertyDefinition): Promise<boolean> {
  return putNew(propertyItem.item(definition, hubId));
}

export async function findCompanyProperty(hubId: number, name: string): Promise<PropertyDefinition | undefined> {
  const item = await getItem(companyPropertyKey(hubId, name));
  return item ? propertyItem.read(item) : undefined;
}

/** Every custom company property of the hub (archived ones too), in name order. */
export async function listCompanyProperties(hubId: number): Promise<PropertyDefinition[]> {
  return (await queryAll(hubPartition(hubId), companyPropertyPrefix)).map(propertyItem.read);
}

/**
 * Replaces an item read earlier; false when another request changed it since (its updatedAt
 * moved) or it is gone.
 */
async function replaceItem(item: Item, expectedUpdatedAt: string | undefined): Promise<boolean> {
  try {
    await db.send(new PutCommand({
      TableName: tableName, Item: item, ConditionExpression: 'updatedAt = :expected',
      ExpressionAttributeValues: { ':expected': expectedUpdatedAt ?? '' },
    }));
    return true;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return false;
    throw error;
  }
}

export async function replaceCompanyProperty(hubId: number, definition: PropertyDefinition, expectedUpdatedAt: string | undefined): Promise<boolean> {
  return replaceItem(propertyItem.item(definition, hubId), expectedUpdatedAt);
}

export async function insertPropertyGroup(hubId: number, group: PropertyGroup): Promise<boolean> {
  return putNew(groupItem.item(group, hubId));
}

export async function findPropertyGroup(hubId: number, name: string): Promise<PropertyGroup | undefined> {
  const item = await getItem(companyPropertyGroupKey(hubId, name));
  return item ? groupItem.read(item) : undefined;
}

export async function listPropertyGroups(hubId: number): Promise<PropertyGroup[]> {
  return (await queryAll(hubPartition(hubId), companyPropertyGroupPrefix)).map(groupItem.read);
}

export async function replacePropertyGroup(hubId: number, group: PropertyGroup, expectedUpdatedAt: string | undefined): Promise<boolean> {
  return replaceItem(groupItem.item(group, hubId), expectedUpdatedAt);
}
