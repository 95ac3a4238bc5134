/**
 * HubSpot's standard meeting properties. Sourced (HUBSPOT-WIRE-FACTS-3.md): `hs_timestamp` is
 * required on create (§2.2) and takes epoch ms or ISO (§2.7); `hs_meeting_title`, `hs_meeting_body`,
 * `hs_meeting_start_time`, `hs_meeting_end_time` and `hs_meeting_outcome` with its five options are
 * the meeting's key properties (§2.7, observed 3p); `hs_createdate`, `hs_lastmodifieddate` and
 * `hs_object_id` are the default properties (§2.1); `hubspot_owner_id` is an owner id as on the
 * other types (§2.4). Inferred (HubSpot's meeting properties as commonly seen, not in the facts
 * file): `hs_internal_meeting_notes`, `hs_meeting_external_url`, `hs_meeting_location`,
 * `hs_attachment_ids`, `hs_body_preview`, every label, the types and field types, and the group
 * `meeting_information` (per-type groups of activities are not sourced, §3.4), which holds every row.
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

const meetingGroups: readonly PropertyGroup[] = [
  { name: 'meeting_information', label: 'Meeting information', displayOrder: 0, archived: false },
];

/** What the record functions read of each standard meeting property: its name, type, options and flags. */
export const meetingPropertyRows: readonly CatalogRow[] = [
  { name: 'hs_timestamp', ...datetime },
  { name: 'hs_meeting_title', ...text },
  { name: 'hs_meeting_body', ...html },
  { name: 'hs_internal_meeting_notes', ...html },
  { name: 'hs_meeting_external_url', ...text },
  { name: 'hs_meeting_location', ...text },
  { name: 'hs_meeting_start_time', ...datetime },
  { name: 'hs_meeting_end_time', ...datetime },
  {
    name: 'hs_meeting_outcome',
    ...select,
    // Sourced (§2.7, observed 3p); the labels are inferred.
    options: optionsOf(['SCHEDULED', 'COMPLETED', 'RESCHEDULED', 'NO_SHOW', 'CANCELED']),
  },
  { name: 'hubspot_owner_id', ...select, referencedObjectType: 'OWNER' },
  // Inferred: the ids name files of the account's file manager, so the catalog lists none.
  { name: 'hs_attachment_ids', ...checkbox, externalOptions: true },
  { name: 'hs_body_preview', ...text, ...calculated },
  { name: 'hs_createdate', ...datetime, ...readOnly },
  { name: 'hs_lastmodifieddate', ...datetime, ...readOnly },
  { name: 'hs_object_id', ...number, ...readOnly },
];

/** The label of each row, by name (the properties API's). */
export const meetingPropertyLabels: CatalogTexts = {
  hs_timestamp: 'Activity date',
  hs_meeting_title: 'Meeting name',
  hs_meeting_body: 'Meeting description',
  hs_internal_meeting_notes: 'Internal meeting notes',
  hs_meeting_external_url: 'External URL',
  hs_meeting_location: 'Location',
  hs_meeting_start_time: 'Meeting start time',
  hs_meeting_end_time: 'Meeting end time',
  hs_meeting_outcome: 'Meeting outcome',
  hubspot_owner_id: 'Activity assigned to',
  hs_attachment_ids: 'Attached file IDs',
  hs_body_preview: 'Body preview',
  hs_createdate: 'Object create date/time',
  hs_lastmodifieddate: 'Last modified date',
  hs_object_id: 'Record ID',
};

/** The description of each row, by name (read by the properties API's reads only). */
export const meetingPropertyDescriptions: CatalogTexts = {
  hs_timestamp:
    'The time the meeting is shown at on the timeline (epoch milliseconds or ISO-8601); required on create.',
  hs_meeting_title: 'The title of the meeting.',
  hs_meeting_body: 'The description of the meeting, as HTML.',
  hs_internal_meeting_notes: 'Notes on the meeting for the team, as HTML; not shared with attendees.',
  hs_meeting_external_url: 'The URL of the meeting in an external calendar or conferencing tool.',
  hs_meeting_location: 'Where the meeting takes place (a place or a conference link).',
  hs_meeting_start_time: 'The time the meeting starts.',
  hs_meeting_end_time: 'The time the meeting ends.',
  hs_meeting_outcome: 'The outcome of the meeting.',
  hubspot_owner_id: 'The owner the meeting is assigned to (an owner id).',
  hs_attachment_ids: 'The ids of the files attached to the meeting, separated by semicolons.',
  hs_body_preview: 'The start of the meeting description as plain text; computed from hs_meeting_body.',
  hs_createdate: 'The date the meeting was created.',
  hs_lastmodifieddate: 'The most recent time any property of the meeting was changed.',
  hs_object_id: 'The unique id of the meeting; equals the record id.',
};

/** The meeting catalog's tables: shared/properties/standard-catalogs.ts reads them from here in source, and a deployed bundle from the JSON file bin/build-validators.ts writes of them. */
export const meetingTables: CatalogTables = {
  rows: meetingPropertyRows,
  labels: meetingPropertyLabels,
  descriptions: meetingPropertyDescriptions,
  defaultGroup: 'meeting_information',
  groups: meetingGroups,
};
