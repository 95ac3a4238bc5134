/**
 * HubSpot's standard email properties. Sourced (HUBSPOT-WIRE-FACTS-3.md): `hs_timestamp` and
 * `hs_email_direction` are required on create (§2.2, doc), `hs_timestamp` takes epoch ms or ISO
 * (§2.7); `hs_email_subject`, `hs_email_text`, `hs_email_html` and `hs_email_headers` are the email's
 * key properties (§2.7, observed 3p, names only); `hs_createdate`, `hs_lastmodifieddate` and
 * `hs_object_id` are the default properties (§2.1); `hubspot_owner_id` is an owner id as on the
 * other types (§2.4). Inferred (HubSpot's email properties as commonly seen, not in the facts file):
 * the option lists of `hs_email_direction` and `hs_email_status`, `hs_email_status` itself,
 * `hs_attachment_ids`, `hs_body_preview`, every label, the types and field types, and the group
 * `email_information` (per-type groups of activities are not sourced, §3.4), which holds every row.
 */
import { activityTables } from '../activity-catalog';
import { html, optionsOf, select, text, textarea } from '../standard-catalog';

/** The email catalog's tables (activity-catalog.ts adds `hs_timestamp` and the rows every activity ends with). */
export const tables = activityTables({
  singular: 'email',
  group: { name: 'email_information', label: 'Email information' },
  timestamp: {
    label: 'Activity date',
    description: 'The time the email was sent (epoch milliseconds or ISO-8601); required on create.',
  },
  // An email has two bodies (text and HTML), so the preview names neither.
  bodyPreview: { of: 'email body', from: 'its body' },
  rows: [
    {
      name: 'hs_email_direction',
      ...select,
      // Inferred: the directions of HubSpot's emails guide (the facts file names the property only).
      options: optionsOf(['EMAIL', 'INCOMING_EMAIL', 'FORWARDED_EMAIL']),
    },
    { name: 'hs_email_subject', ...text },
    { name: 'hs_email_text', ...textarea },
    { name: 'hs_email_html', ...html },
    { name: 'hs_email_headers', ...textarea },
    {
      name: 'hs_email_status',
      ...select,
      // Inferred: the send states of HubSpot's emails guide.
      options: optionsOf(['BOUNCED', 'FAILED', 'SCHEDULED', 'SENDING', 'SENT']),
    },
  ],
  labels: {
    hs_email_direction: 'Email direction',
    hs_email_subject: 'Email subject',
    hs_email_text: 'Email body',
    hs_email_html: 'Email HTML body',
    hs_email_headers: 'Email headers',
    hs_email_status: 'Email send status',
  },
  descriptions: {
    hs_email_direction:
      'Whether the CRM user sent the email (EMAIL), received it (INCOMING_EMAIL) or forwarded it (FORWARDED_EMAIL); required on create.',
    hs_email_subject: 'The subject line of the email.',
    hs_email_text: 'The body of the email, as plain text.',
    hs_email_html: 'The body of the email, as HTML.',
    hs_email_headers: 'The headers of the email (sender and recipients), as JSON text.',
    hs_email_status: 'The send state of the email.',
  },
});
