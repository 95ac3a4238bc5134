import type { AssociationType } from '../db/association-labels';
import type { KeyedType } from '../db/keys';
import type { Scope } from '../oauth/scopes';

/**
 * What the service knows of a CRM object type, as data: a standard type's entry is its module's
 * (shared/objects/types/<type>.ts), a custom type's is built from its schema
 * (custom-object-types.ts); the registry (object-types.ts) finds them.
 */
export interface ObjectType extends KeyedType {
  /** The object type id (`0-2`). */
  id: string;
  /** The plural name, the path token (`companies`). */
  name: string;
  singular: string;
  /** Activities can be pinned on a record. */
  isActivity: boolean;
  /** Who may read and change the type's records: any one scope of a list suffices. */
  scopes: { read: readonly Scope[]; write: readonly Scope[] };
  /** Who may read and change the type's property definitions. */
  propertyScopes: { read: readonly Scope[]; write: readonly Scope[] };
  /** The property holding the last modification time (`updatedAt`): contacts `lastmodifieddate`, every other type `hs_lastmodifieddate`. */
  modifiedProperty: 'lastmodifieddate' | 'hs_lastmodifieddate';
  /** What a read returns when the client names no properties. */
  defaultProperties: readonly string[];
  /** Where a search's `query` looks (HubSpot's default searchable properties of the type). */
  queryProperties: readonly string[];
  /** Standard properties whose values identify one record of an account (an `idProperty`). */
  uniqueProperties: readonly string[];
  /** A `;`-separated list property whose values share the unique property's namespace (`hs_additional_domains`, `hs_additional_emails`). */
  additionalUniqueProperty?: string;
  /** The property whose value names a record where a record is listed by name (the limits tracking API's samples); its id when unset or empty. */
  primaryDisplayProperty?: string;
  /** Properties a create must set; clearing one later is refused too (400 VALIDATION_ERROR naming it). */
  requiredProperties: readonly string[];
  /** Where a record of a type with pipelines stands: its pipeline and stage properties, and the pipeline used when a create names none. */
  pipeline?: { property: string; stageProperty: string; defaultPipelineId: string };
  /** Whether two records of the type can be merged (`/merge`): HubSpot has no merge for activities, products and line items. */
  isMergeable: boolean;
  /** Whether this service stores records of the type yet (`/crm/v3/objects/{objectType}`); the others are association ends only. */
  isStored: boolean;
  /** The standard catalog the type reads (shared/properties/standard-catalogs.ts), when it is not the one named like the type: custom types share one. */
  catalogName?: string;
  /** A type of the account's own, defined through the schemas API (custom-object-types.ts). */
  isCustom?: boolean;
  /** A custom type's association definitions, both directions (account-object-types.ts): a pair's default type where no standard one exists. */
  associationTypes?: readonly AssociationType[];
}
