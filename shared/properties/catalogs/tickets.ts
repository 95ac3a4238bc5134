/**
 * HubSpot's standard ticket properties: names, labels, types and field types as read from a portal
 * dump (HUBSPOT-WIRE-FACTS-3.md §3.3). Per-property groups are not sourced (only `hs_file_upload`
 * was captured, in `ticketinformation`), so every row is in `ticketinformation`. `hs_pipeline` and
 * `hs_pipeline_stage` take their options from the account's pipelines, so the catalog lists none.
 */
import type { PropertyGroup } from '../property-definition';
import {
  readOnly,
  calculated,
  booleanOptions,
  boolEquation,
  checkbox,
  datetime,
  number,
  numberEquation,
  optionsOf,
  radio,
  select,
  text,
  textarea,
  type CatalogRow,
  type CatalogTables,
  type CatalogTexts,
} from '../standard-catalog';

const ticketGroups: readonly PropertyGroup[] = [
  { name: 'ticketinformation', label: 'Ticket information', displayOrder: 0, archived: false },
];

/** What the record functions read of each standard ticket property: its name, type, options and flags. */
export const ticketPropertyRows: readonly CatalogRow[] = [
  { name: 'subject', ...text },
  { name: 'content', ...textarea },
  { name: 'hs_pipeline', ...select, externalOptions: true },
  { name: 'hs_pipeline_stage', ...select, externalOptions: true },
  {
    name: 'hs_ticket_priority',
    ...select,
    options: optionsOf(['LOW', 'MEDIUM', 'HIGH', 'URGENT']),
  },
  {
    name: 'hs_ticket_category',
    ...checkbox,
    options: optionsOf(['PRODUCT_ISSUE', 'BILLING_ISSUE', 'FEATURE_REQUEST', 'GENERAL_INQUIRY']),
  },
  { name: 'hubspot_owner_id', ...select, referencedObjectType: 'OWNER' },
  {
    name: 'source_type',
    ...select,
    // Inferred: the channels a ticket commonly comes from.
    options: optionsOf(['EMAIL', 'CHAT', 'PHONE', 'FORM']),
  },
  {
    name: 'hs_resolution',
    ...radio,
    // Inferred: a few plausible outcomes; portals edit this list.
    options: optionsOf(['ISSUE_FIXED', 'QUESTION_ANSWERED', 'WORKAROUND_PROVIDED', 'NOT_FIXED']),
  },
  { name: 'createdate', ...datetime, ...readOnly },
  { name: 'hs_createdate', ...datetime, ...readOnly },
  { name: 'hs_lastmodifieddate', ...datetime, ...readOnly },
  { name: 'closed_date', ...datetime },
  { name: 'first_agent_reply_date', ...datetime, ...calculated },
  { name: 'last_reply_date', ...datetime, ...calculated },
  { name: 'time_to_close', ...numberEquation, ...calculated },
  { name: 'hs_object_id', ...number, ...readOnly },
  { name: 'hs_pinned_engagement_id', ...number },
  { name: 'hs_ticket_id', ...numberEquation, ...calculated },
  {
    name: 'hs_helpdesk_sort_timestamp',
    type: 'datetime',
    fieldType: 'calculation_rollup',
    readOnly: true,
    calculated: true,
  },
  {
    name: 'hs_last_message_from_visitor',
    ...boolEquation,
    readOnly: true,
    calculated: true,
    options: booleanOptions(),
  },
  { name: 'hs_object_source', ...text, ...readOnly },
  {
    name: 'hs_object_source_label',
    ...select,
    // INTEGRATION and INTERNAL_PROCESSING were observed; CRM_UI and IMPORT are inferred.
    readOnly: true,
    options: optionsOf(['CRM_UI', 'IMPORT', 'INTEGRATION', 'INTERNAL_PROCESSING']),
  },
  { name: 'hs_num_associated_companies', ...number, ...calculated },
  { name: 'num_notes', ...number, ...calculated },
  { name: 'hs_merged_object_ids', ...checkbox, ...readOnly },
  { name: 'hs_file_upload', type: 'string', fieldType: 'file' },
];

/** The label of each row, by name (the properties API's). */
export const ticketPropertyLabels: CatalogTexts = {
  subject: 'Ticket name',
  content: 'Ticket description',
  hs_pipeline: 'Pipeline',
  hs_pipeline_stage: 'Ticket status',
  hs_ticket_priority: 'Priority',
  hs_ticket_category: 'Category',
  hubspot_owner_id: 'Ticket owner',
  source_type: 'Source',
  hs_resolution: 'Resolution',
  createdate: 'Create date',
  hs_createdate: 'Object create date/time',
  hs_lastmodifieddate: 'Last modified date',
  closed_date: 'Close date',
  first_agent_reply_date: 'First agent email response date',
  last_reply_date: 'Last customer reply date',
  time_to_close: 'Time to close',
  hs_object_id: 'Record ID',
  hs_pinned_engagement_id: 'Pinned Engagement ID',
  hs_ticket_id: 'Ticket ID',
  hs_helpdesk_sort_timestamp: 'Helpdesk Sort Timestamp',
  hs_last_message_from_visitor: 'Last message from visitor',
  hs_object_source: 'Record creation source',
  hs_object_source_label: 'Record source',
  hs_num_associated_companies: 'Number of Associated Companies',
  num_notes: 'Number of Sales Activities',
  hs_merged_object_ids: 'Merged Ticket IDs',
  hs_file_upload: 'File upload',
};

/** The description of each row, by name (read by the properties API's reads only). */
export const ticketPropertyDescriptions: CatalogTexts = {
  subject: 'The name of the ticket.',
  content: 'A description of the ticket.',
  hs_pipeline: 'The pipeline of the ticket (a pipeline id; the default pipeline is `0`).',
  hs_pipeline_stage: "The stage of the ticket in its pipeline (a stage id of the ticket's pipeline).",
  hs_ticket_priority: 'The priority of the ticket.',
  hs_ticket_category: 'The categories of the ticket, separated by semicolons.',
  hubspot_owner_id: 'The owner of the ticket (an owner id).',
  source_type: 'The channel the ticket came from.',
  hs_resolution: 'How the ticket was resolved.',
  createdate: 'The date the ticket was created.',
  hs_createdate: 'The date the ticket was created (the generic object field).',
  hs_lastmodifieddate: 'The most recent time any property of the ticket was changed.',
  closed_date: 'The date the ticket was closed.',
  first_agent_reply_date: 'The date an agent first replied to the ticket by email.',
  last_reply_date: 'The date the customer last replied on the ticket.',
  time_to_close: 'The time between the creation and the closing of the ticket, in milliseconds.',
  hs_object_id: 'The unique id of the ticket; equals the record id.',
  hs_pinned_engagement_id: 'The id of the activity pinned on the ticket; it must be associated with the ticket.',
  hs_ticket_id: 'The id of the ticket; equals the record id.',
  hs_helpdesk_sort_timestamp: 'The time the help desk sorts the ticket by.',
  hs_last_message_from_visitor: 'Whether the last message on the ticket came from the customer.',
  hs_object_source: 'How the ticket was created (for example API).',
  hs_object_source_label: 'The kind of source that created the ticket.',
  hs_num_associated_companies: 'The number of companies associated with the ticket.',
  num_notes: 'The number of activities logged on the ticket.',
  hs_merged_object_ids: 'The ids of the tickets merged into this one, separated by semicolons; set by a merge.',
  hs_file_upload: 'Files attached to the ticket.',
};

/** The ticket catalog's tables: shared/properties/standard-catalogs.ts reads them from here in source, and a deployed bundle from the JSON file bin/build-validators.ts writes of them. */
export const tables: CatalogTables = {
  rows: ticketPropertyRows,
  labels: ticketPropertyLabels,
  descriptions: ticketPropertyDescriptions,
  defaultGroup: 'ticketinformation',
  groups: ticketGroups,
};
