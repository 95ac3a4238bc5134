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

export function isReadOnly(definition: PropertyDefinition): boolean {
  return definition.modificationMetadata.readOnlyValue;
}
