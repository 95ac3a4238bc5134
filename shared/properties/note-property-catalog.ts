/**
 * HubSpot's standard note properties. Sourced (HUBSPOT-WIRE-FACTS-3.md): `hs_timestamp` is required
 * on create (§2.2) and takes epoch ms or ISO (§2.7); `hs_note_body` is the note's key property (§2.7,
 * observed 3p); `hs_createdate`, `hs_lastmodifieddate` and `hs_object_id` are the default properties
 * (§2.1); `hubspot_owner_id` is an owner id as on the other types (§2.4). Inferred (HubSpot's
 * engagement properties as commonly seen, not in the facts file): `hs_attachment_ids`,
 * `hs_body_preview`, every label, the types and field types, and the group
 * `note_information` (per-type groups of activities are not sourced, §3.4), which holds every row.
 */
import type { PropertyGroup } from './property-definition';
import {
  readOnly,
  calculated,
  checkbox,
  datetime,
  html,
  number,
  select,
  text,
  type CatalogRow,
  type CatalogTables,
  type CatalogTexts,
} from './standard-catalog';

const noteGroups: readonly PropertyGroup[] = [
  { name: 'note_information', label: 'Note information', displayOrder: 0, archived: false },
];

/** What the record functions read of each standard note property: its name, type, options and flags. */
export const notePropertyRows: readonly CatalogRow[] = [
  { name: 'hs_timestamp', ...datetime },
  { name: 'hs_note_body', ...html },
  { name: 'hubspot_owner_id', ...select, referencedObjectType: 'OWNER' },
  // Inferred: the ids name files of the account's file manager, so the catalog lists none.
  { name: 'hs_attachment_ids', ...checkbox, externalOptions: true },
  { name: 'hs_body_preview', ...text, ...calculated },
  { name: 'hs_createdate', ...datetime, ...readOnly },
  { name: 'hs_lastmodifieddate', ...datetime, ...readOnly },
  { name: 'hs_object_id', ...number, ...readOnly },
];

/** The label of each row, by name (the properties API's). */
export const notePropertyLabels: CatalogTexts = {
  hs_timestamp: 'Activity date',
  hs_note_body: 'Note body',
  hubspot_owner_id: 'Activity assigned to',
  hs_attachment_ids: 'Attached file IDs',
  hs_body_preview: 'Body preview',
  hs_createdate: 'Object create date/time',
  hs_lastmodifieddate: 'Last modified date',
  hs_object_id: 'Record ID',
};

/** The description of each row, by name (read by the properties API's reads only). */
export const notePropertyDescriptions: CatalogTexts = {
  hs_timestamp: 'The time the note was logged (epoch milliseconds or ISO-8601); required on create.',
  hs_note_body: 'The text of the note, as HTML.',
  hubspot_owner_id: 'The owner the note is assigned to (an owner id).',
  hs_attachment_ids: 'The ids of the files attached to the note, separated by semicolons.',
  hs_body_preview: 'The start of the note body as plain text; computed from hs_note_body.',
  hs_createdate: 'The date the note was created.',
  hs_lastmodifieddate: 'The most recent time any property of the note was changed.',
  hs_object_id: 'The unique id of the note; equals the record id.',
};

/** The note catalog's tables: shared/properties/standard-catalogs.ts reads them from here in source, and a deployed bundle from the JSON file bin/build-validators.ts writes of them. */
export const noteTables: CatalogTables = {
  rows: notePropertyRows,
  labels: notePropertyLabels,
  descriptions: notePropertyDescriptions,
  defaultGroup: 'note_information',
  groups: noteGroups,
};
