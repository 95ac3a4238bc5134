/**
 * The property model of HubSpot's CRM v3 properties API; the same shape is stored and returned, so the
 * stored record type (shared/db/company-properties.ts) is the model.
 */
import type { PropertyDefinition } from '../db/company-properties';

export { fieldTypes, propertyTypes } from '../db/company-properties';
export type {
  FieldType,
  PropertyDefinition,
  PropertyGroup,
  PropertyOption,
  PropertyType,
} from '../db/company-properties';

export function isReadOnly(definition: PropertyDefinition): boolean {
  return definition.modificationMetadata.readOnlyValue;
}
