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
  textarea,
  type CatalogRow,
  type CatalogTables,
  type CatalogTexts,
} from './standard-catalog';

const emailGroups: readonly PropertyGroup[] = [
  { name: 'email_information', label: 'Email information', displayOrder: 0, archived: false },
];

/** What the record functions read of each standard email property: its name, type, options and flags. */
export const emailPropertyRows: readonly CatalogRow[] = [
  { name: 'hs_timestamp', ...datetime },
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
  { name: 'hubspot_owner_id', ...select, referencedObjectType: 'OWNER' },
  // Inferred: the ids name files of the account's file manager, so the catalog lists none.
  { name: 'hs_attachment_ids', ...checkbox, externalOptions: true },
  { name: 'hs_body_preview', ...text, ...calculated },
  { name: 'hs_createdate', ...datetime, ...readOnly },
  { name: 'hs_lastmodifieddate', ...datetime, ...readOnly },
  { name: 'hs_object_id', ...number, ...readOnly },
];

/** The label of each row, by name (the properties API's). */
export const emailPropertyLabels: CatalogTexts = {
  hs_timestamp: 'Activity date',
  hs_email_direction: 'Email direction',
  hs_email_subject: 'Email subject',
  hs_email_text: 'Email body',
  hs_email_html: 'Email HTML body',
  hs_email_headers: 'Email headers',
  hs_email_status: 'Email send status',
  hubspot_owner_id: 'Activity assigned to',
  hs_attachment_ids: 'Attached file IDs',
  hs_body_preview: 'Body preview',
  hs_createdate: 'Object create date/time',
  hs_lastmodifieddate: 'Last modified date',
  hs_object_id: 'Record ID',
};

/** The description of each row, by name (read by the properties API's reads only). */
export const emailPropertyDescriptions: CatalogTexts = {
  hs_timestamp: 'The time the email was sent (epoch milliseconds or ISO-8601); required on create.',
  hs_email_direction:
    'Whether the CRM user sent the email (EMAIL), received it (INCOMING_EMAIL) or forwarded it (FORWARDED_EMAIL); required on create.',
  hs_email_subject: 'The subject line of the email.',
  hs_email_text: 'The body of the email, as plain text.',
  hs_email_html: 'The body of the email, as HTML.',
  hs_email_headers: 'The headers of the email (sender and recipients), as JSON text.',
  hs_email_status: 'The send state of the email.',
  hubspot_owner_id: 'The owner the email is assigned to (an owner id).',
  hs_attachment_ids: 'The ids of the files attached to the email, separated by semicolons.',
  hs_body_preview: 'The start of the email body as plain text; computed from its body.',
  hs_createdate: 'The date the email was created.',
  hs_lastmodifieddate: 'The most recent time any property of the email was changed.',
  hs_object_id: 'The unique id of the email; equals the record id.',
};

/** The email catalog's tables: shared/properties/standard-catalogs.ts reads them from here in source, and a deployed bundle from the JSON file bin/build-validators.ts writes of them. */
export const emailTables: CatalogTables = {
  rows: emailPropertyRows,
  labels: emailPropertyLabels,
  descriptions: emailPropertyDescriptions,
  defaultGroup: 'email_information',
  groups: emailGroups,
};
