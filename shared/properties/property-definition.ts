/** The property model of CRM v3 (reference section 9.3); the same shape is stored and returned. */
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

export function isReadOnly(definition: PropertyDefinition): boolean {
  return definition.modificationMetadata.readOnlyValue;
}

/** A property group (PropertyGroup of the v3 properties API); updatedAt is bookkeeping, not sent. */
export interface PropertyGroup {
  name: string;
  label: string;
  displayOrder: number;
  archived: boolean;
  updatedAt?: string;
}
