/**
 * The property model of HubSpot's CRM v3 properties API; the same shape is stored and returned, so the
 * stored record type (shared/db/property-definitions.ts) is the model.
 */
import type { PropertyDefinition } from '../db/property-definitions';

export { fieldTypes, propertyTypes } from '../db/property-definitions';
export type {
  FieldType,
  PropertyDefinition,
  PropertyGroup,
  PropertyOption,
  PropertyType,
} from '../db/property-definitions';

/**
 * What a record's values are checked, stored and searched by: a definition less its label,
 * description, group and display fields. The record functions read standard properties in this
 * shape (standard-catalog.ts), custom ones as stored.
 */
export type PropertyRules = Pick<
  PropertyDefinition,
  | 'name'
  | 'type'
  | 'fieldType'
  | 'options'
  | 'externalOptions'
  | 'hasUniqueValue'
  | 'referencedObjectType'
  | 'modificationMetadata'
>;

export function isReadOnly(definition: PropertyRules): boolean {
  return definition.modificationMetadata.readOnlyValue;
}
