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
import { activityTables } from '../activity-catalog';
import { html, number, optionsOf, select, text } from '../standard-catalog';

/** The call catalog's tables (activity-catalog.ts adds `hs_timestamp` and the rows every activity ends with). */
export const tables = activityTables({
  singular: 'call',
  group: { name: 'call_information', label: 'Call information' },
  timestamp: {
    label: 'Activity date',
    description: 'The time the call took place (epoch milliseconds or ISO-8601); required on create.',
  },
  bodyPreview: { of: 'call notes', from: 'hs_call_body' },
  rows: [
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
  ],
  labels: {
    hs_call_title: 'Call title',
    hs_call_body: 'Call notes',
    hs_call_direction: 'Call direction',
    hs_call_duration: 'Call duration',
    hs_call_status: 'Call status',
    hs_call_from_number: 'From number',
    hs_call_to_number: 'To number',
    hs_call_recording_url: 'Recording URL',
    hs_call_disposition: 'Call outcome',
  },
  descriptions: {
    hs_call_title: 'The title of the call.',
    hs_call_body: 'The notes of the call, as HTML.',
    hs_call_direction: 'Whether the call was made to the CRM user (inbound) or by them (outbound).',
    hs_call_duration: 'The length of the call, in milliseconds.',
    hs_call_status: 'The state of the call.',
    hs_call_from_number: 'The phone number the call was made from.',
    hs_call_to_number: 'The phone number the call was made to.',
    hs_call_recording_url: 'The URL of the recording of the call.',
    hs_call_disposition: "The outcome of the call (the id of one of the account's call outcomes).",
  },
});
