/**
 * HubSpot's standard note properties. Sourced (HUBSPOT-WIRE-FACTS-3.md): `hs_timestamp` is required
 * on create (§2.2) and takes epoch ms or ISO (§2.7); `hs_note_body` is the note's key property (§2.7,
 * observed 3p); `hs_createdate`, `hs_lastmodifieddate` and `hs_object_id` are the default properties
 * (§2.1); `hubspot_owner_id` is an owner id as on the other types (§2.4). Inferred (HubSpot's
 * engagement properties as commonly seen, not in the facts file): `hs_attachment_ids`,
 * `hs_body_preview`, every label, the types and field types, and the group
 * `note_information` (per-type groups of activities are not sourced, §3.4), which holds every row.
 */
import { activityTables } from '../activity-catalog';
import { html } from '../standard-catalog';

/** The note catalog's tables (activity-catalog.ts adds `hs_timestamp` and the rows every activity ends with). */
export const tables = activityTables({
  singular: 'note',
  group: { name: 'note_information', label: 'Note information' },
  timestamp: {
    label: 'Activity date',
    description: 'The time the note was logged (epoch milliseconds or ISO-8601); required on create.',
  },
  bodyPreview: { of: 'note body', from: 'hs_note_body' },
  rows: [{ name: 'hs_note_body', ...html }],
  labels: { hs_note_body: 'Note body' },
  descriptions: { hs_note_body: 'The text of the note, as HTML.' },
});
