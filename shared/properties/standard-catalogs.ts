import type { ObjectType } from '../objects/object-types';
import {
  findStandardCompanyProperty,
  isStandardCompanyPropertyGroup,
  standardCompanyProperties,
  standardCompanyPropertyGroups,
} from './company-property-catalog';
import type { PropertyDefinition, PropertyGroup } from './property-definition';

/** HubSpot's standard properties and groups of one type: no item in the table, never changed. */
export interface TypeCatalog {
  properties: readonly PropertyDefinition[];
  groups: readonly PropertyGroup[];
  find(name: string): PropertyDefinition | undefined;
  isStandardGroup(name: string): boolean;
}

const catalogs: Record<string, TypeCatalog> = {
  companies: {
    properties: standardCompanyProperties,
    groups: standardCompanyPropertyGroups,
    find: findStandardCompanyProperty,
    isStandardGroup: isStandardCompanyPropertyGroup,
  },
};

const empty: TypeCatalog = { properties: [], groups: [], find: () => undefined, isStandardGroup: () => false };

/** The standard catalog of a type (a type without one, like an activity until it is stored, has none). */
export function catalogOf(type: ObjectType): TypeCatalog {
  return catalogs[type.name] ?? empty;
}
