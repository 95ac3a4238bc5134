/**
 * The standard (system) properties every custom object type has, whatever its schema defines: the
 * generic keys `hs_createdate`, `hs_lastmodifieddate` and `hs_object_id` (reference/HUBSPOT-WIRE-FACTS-3.md
 * §1.5: a custom or newer object's default properties) and the owner, as on every type (§2.4).
 * Inferred: the labels, descriptions and the group `object_information` that holds them (the schema's own
 * properties go to `<name>_information`, a group the schema's create stores with them).
 */
import type { PropertyGroup } from '../property-definition';
import {
  datetime,
  number,
  readOnly,
  select,
  type CatalogRow,
  type CatalogTables,
  type CatalogTexts,
} from '../standard-catalog';

const customObjectGroups: readonly PropertyGroup[] = [
  { name: 'object_information', label: 'Object information', displayOrder: 0, archived: false },
];

const customObjectPropertyRows: readonly CatalogRow[] = [
  { name: 'hubspot_owner_id', ...select, referencedObjectType: 'OWNER' },
  { name: 'hs_createdate', ...datetime, ...readOnly },
  { name: 'hs_lastmodifieddate', ...datetime, ...readOnly },
  { name: 'hs_object_id', ...number, ...readOnly },
];

const customObjectPropertyLabels: CatalogTexts = {
  hubspot_owner_id: 'Owner',
  hs_createdate: 'Object create date/time',
  hs_lastmodifieddate: 'Object last modified date/time',
  hs_object_id: 'Record ID',
};

const customObjectPropertyDescriptions: CatalogTexts = {
  hubspot_owner_id: 'The owner of the record (an owner id).',
  hs_createdate: 'The date and time the record was created.',
  hs_lastmodifieddate: 'The most recent time any property of the record was changed.',
  hs_object_id: 'The unique id of the record; equals the record id.',
};

/** The tables every custom type reads (its registry entry's catalogName): shared/properties/standard-catalogs.ts. */
export const tables: CatalogTables = {
  rows: customObjectPropertyRows,
  labels: customObjectPropertyLabels,
  descriptions: customObjectPropertyDescriptions,
  defaultGroup: 'object_information',
  groups: customObjectGroups,
};
