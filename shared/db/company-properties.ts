import { entity, getItem, putNew, queryAll } from './core';
import { companyPropertyKey, companyPropertyPrefix, hubPartition } from './keys';

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
  createdAt?: string;
  updatedAt?: string;
  createdUserId?: string;
  updatedUserId?: string;
}

const propertyItem = /* @__PURE__ */ entity<PropertyDefinition, number>({ key: (definition, hubId) => companyPropertyKey(hubId, definition.name) });

/** Returns false when a property of that name already exists in the hub. */
export async function insertCompanyProperty(hubId: number, definition: PropertyDefinition): Promise<boolean> {
  return putNew(propertyItem.item(definition, hubId));
}

export async function findCompanyProperty(hubId: number, name: string): Promise<PropertyDefinition | undefined> {
  const item = await getItem(companyPropertyKey(hubId, name));
  return item ? propertyItem.read(item) : undefined;
}

/** Every custom company property of the hub, in name order. */
export async function listCompanyProperties(hubId: number): Promise<PropertyDefinition[]> {
  return (await queryAll(hubPartition(hubId), companyPropertyPrefix)).map(propertyItem.read);
}
