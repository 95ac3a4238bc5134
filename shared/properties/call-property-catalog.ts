/**
 * HubSpot's standard call properties. Sourced (HUBSPOT-WIRE-FACTS-3.md): `hs_timestamp` is required
 * on create (§2.2) and takes epoch ms or ISO (§2.7); `hs_call_title`, `hs_call_body`,
 * `hs_call_direction`, `hs_call_duration` and `hs_call_status` are the call's key properties (§2.7,
 * observed 3p, names only); `hs_createdate`, `hs_lastmodifieddate` and `hs_object_id` are the
 * default properties (§2.1); `hubspot_owner_id` is an owner id as on the other types (§2.4).
 * Inferred (HubSpot's call properties as commonly seen, not in the facts file): the option lists of
 * `hs_call_direction` and `hs_call_status`, `hs_call_from_number`, `hs_call_to_number`,
 * `hs_call_recording_url`, `hs_call_disposition`, `hs_attachment_ids`, `hs_body_preview`, every
 * label, the field types, and the group `call_information` (per-type groups of activities are not
 * sourced, §3.4), which holds every row.
 */
import type { PropertyGroup } from './property-definition';
import {
  readOnly,
  calculated,
  checkbox,
  datetime,
  html,
  number,
  optionsOf,
  select,
  text,
  type CatalogRow,
  type CatalogTables,
  type CatalogTexts,
} from './standard-catalog';

const callGroups: readonly PropertyGroup[] = [
  { name: 'call_information', label: 'Call information', displayOrder: 0, archived: false },
];

/** What the record functions read of each standard call property: its name, type, options and flags. */
export const callPropertyRows: readonly CatalogRow[] = [
  { name: 'hs_timestamp', ...datetime },
  { name: 'hs_call_title', ...text },
  { name: 'hs_call_body', ...html },
  {
    name: 'hs_call_direction',
    ...select,
    // Inferred: the two directions of HubSpot's calls guide (the facts file names the property only).
    options: optionsOf(['INBOUND', 'OUTBOUND']),
  },
  { name: 'hs_call_duration', ...number },
  {
    name: 'hs_call_status',
    ...select,
    // Inferred: the statuses of HubSpot's calls guide (the facts file names the property only).
    options: optionsOf([
      'BUSY',
      { value: 'CALLING_CRM_USER', label: 'Calling CRM User' },
      'CANCELED',
      'COMPLETED',
      'CONNECTING',
      'FAILED',
      'IN_PROGRESS',
      'MISSED',
      'NO_ANSWER',
      'QUEUED',
      'RINGING',
    ]),
  },
  { name: 'hs_call_from_number', ...text },
  { name: 'hs_call_to_number', ...text },
  { name: 'hs_call_recording_url', ...text },
  // Inferred as text: HubSpot's outcomes are GUIDs each portal defines, so there is no fixed list to check.
  { name: 'hs_call_disposition', ...text },
  { name: 'hubspot_owner_id', ...select, referencedObjectType: 'OWNER' },
  // Inferred: the ids name files of the account's file manager, so the catalog lists none.
  { name: 'hs_attachment_ids', ...checkbox, externalOptions: true },
  { name: 'hs_body_preview', ...text, ...calculated },
  { name: 'hs_createdate', ...datetime, ...readOnly },
  { name: 'hs_lastmodifieddate', ...datetime, ...readOnly },
  { name: 'hs_object_id', ...number, ...readOnly },
];

/** The label of each row, by name (the properties API's). */
export const callPropertyLabels: CatalogTexts = {
  hs_timestamp: 'Activity date',
  hs_call_title: 'Call title',
  hs_call_body: 'Call notes',
  hs_call_direction: 'Call direction',
  hs_call_duration: 'Call duration',
  hs_call_status: 'Call status',
  hs_call_from_number: 'From number',
  hs_call_to_number: 'To number',
  hs_call_recording_url: 'Recording URL',
  hs_call_disposition: 'Call outcome',
  hubspot_owner_id: 'Activity assigned to',
  hs_attachment_ids: 'Attached file IDs',
  hs_body_preview: 'Body preview',
  hs_createdate: 'Object create date/time',
  hs_lastmodifieddate: 'Last modified date',
  hs_object_id: 'Record ID',
};

/** The description of each row, by name (read by the properties API's reads only). */
export const callPropertyDescriptions: CatalogTexts = {
  hs_timestamp: 'The time the call took place (epoch milliseconds or ISO-8601); required on create.',
  hs_call_title: 'The title of the call.',
  hs_call_body: 'The notes of the call, as HTML.',
  hs_call_direction: 'Whether the call was made to the CRM user (inbound) or by them (outbound).',
  hs_call_duration: 'The length of the call, in milliseconds.',
  hs_call_status: 'The state of the call.',
  hs_call_from_number: 'The phone number the call was made from.',
  hs_call_to_number: 'The phone number the call was made to.',
  hs_call_recording_url: 'The URL of the recording of the call.',
  hs_call_disposition: "The outcome of the call (the id of one of the account's call outcomes).",
  hubspot_owner_id: 'The owner the call is assigned to (an owner id).',
  hs_attachment_ids: 'The ids of the files attached to the call, separated by semicolons.',
  hs_body_preview: 'The start of the call notes as plain text; computed from hs_call_body.',
  hs_createdate: 'The date the call was created.',
  hs_lastmodifieddate: 'The most recent time any property of the call was changed.',
  hs_object_id: 'The unique id of the call; equals the record id.',
};

/** The call catalog's tables: shared/properties/standard-catalogs.ts reads them from here in source, and a deployed bundle from the JSON file bin/build-validators.ts writes of them. */
export const callTables: CatalogTables = {
  rows: callPropertyRows,
  labels: callPropertyLabels,
  descriptions: callPropertyDescriptions,
  defaultGroup: 'call_information',
  groups: callGroups,
};
