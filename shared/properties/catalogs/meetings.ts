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
import { activityTables } from '../activity-catalog';
import { datetime, html, optionsOf, select, text } from '../standard-catalog';

/** The meeting catalog's tables (activity-catalog.ts adds `hs_timestamp` and the rows every activity ends with). */
export const tables = activityTables({
  singular: 'meeting',
  group: { name: 'meeting_information', label: 'Meeting information' },
  timestamp: {
    label: 'Activity date',
    description:
      'The time the meeting is shown at on the timeline (epoch milliseconds or ISO-8601); required on create.',
  },
  bodyPreview: { of: 'meeting description', from: 'hs_meeting_body' },
  rows: [
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
  ],
  labels: {
    hs_meeting_title: 'Meeting name',
    hs_meeting_body: 'Meeting description',
    hs_internal_meeting_notes: 'Internal meeting notes',
    hs_meeting_external_url: 'External URL',
    hs_meeting_location: 'Location',
    hs_meeting_start_time: 'Meeting start time',
    hs_meeting_end_time: 'Meeting end time',
    hs_meeting_outcome: 'Meeting outcome',
  },
  descriptions: {
    hs_meeting_title: 'The title of the meeting.',
    hs_meeting_body: 'The description of the meeting, as HTML.',
    hs_internal_meeting_notes: 'Notes on the meeting for the team, as HTML; not shared with attendees.',
    hs_meeting_external_url: 'The URL of the meeting in an external calendar or conferencing tool.',
    hs_meeting_location: 'Where the meeting takes place (a place or a conference link).',
    hs_meeting_start_time: 'The time the meeting starts.',
    hs_meeting_end_time: 'The time the meeting ends.',
    hs_meeting_outcome: 'The outcome of the meeting.',
  },
});
