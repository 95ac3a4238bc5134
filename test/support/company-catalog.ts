import { companyObjectType } from '../../shared/objects/object-types';
import type { PropertyDefinition } from '../../shared/properties/property-definition';
import { catalogOf } from '../../shared/properties/standard-catalogs';

/** A standard company property as the properties API returns it. */
export function findStandardCompanyProperty(name: string): PropertyDefinition | undefined {
  return catalogOf(companyObjectType).find(name);
}
