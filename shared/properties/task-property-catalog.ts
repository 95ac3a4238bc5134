/**
 * HubSpot's standard task properties. Sourced (HUBSPOT-WIRE-FACTS-3.md): `hs_timestamp` is required
 * on create (§2.2), takes epoch ms or ISO and is the task's due date (§2.7); `hs_task_subject`,
 * `hs_task_body`, `hs_task_status`, `hs_task_priority` and `hs_task_type` with their option values
 * are the task's key properties (§2.7, observed 3p, several; the priority's `NONE` is listed apart, as "seen");
 * `hs_createdate`, `hs_lastmodifieddate` and `hs_object_id` are the default properties (§2.1);
 * `hubspot_owner_id` is an owner id as on the other types (§2.4). Inferred (HubSpot's task properties
 * as commonly seen, not in the facts file): `hs_attachment_ids`, `hs_body_preview`, every label and
 * option label, the types and field types, and the group `task_information` (per-type groups of
 * activities are not sourced, §3.4), which holds every row.
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

const taskGroups: readonly PropertyGroup[] = [
  { name: 'task_information', label: 'Task information', displayOrder: 0, archived: false },
];

/** What the record functions read of each standard task property: its name, type, options and flags. */
export const taskPropertyRows: readonly CatalogRow[] = [
  { name: 'hs_timestamp', ...datetime },
  { name: 'hs_task_subject', ...text },
  { name: 'hs_task_body', ...html },
  {
    name: 'hs_task_status',
    ...select,
    options: optionsOf(['NOT_STARTED', 'IN_PROGRESS', 'WAITING', 'COMPLETED', 'DEFERRED']),
  },
  {
    name: 'hs_task_priority',
    ...select,
    options: optionsOf(['NONE', 'LOW', 'MEDIUM', 'HIGH']),
  },
  {
    name: 'hs_task_type',
    ...select,
    options: optionsOf([{ value: 'TODO', label: 'To-do' }, 'CALL', 'EMAIL']),
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
export const taskPropertyLabels: CatalogTexts = {
  hs_timestamp: 'Due date',
  hs_task_subject: 'Task title',
  hs_task_body: 'Task notes',
  hs_task_status: 'Task status',
  hs_task_priority: 'Priority',
  hs_task_type: 'Task type',
  hubspot_owner_id: 'Activity assigned to',
  hs_attachment_ids: 'Attached file IDs',
  hs_body_preview: 'Body preview',
  hs_createdate: 'Object create date/time',
  hs_lastmodifieddate: 'Last modified date',
  hs_object_id: 'Record ID',
};

/** The description of each row, by name (read by the properties API's reads only). */
export const taskPropertyDescriptions: CatalogTexts = {
  hs_timestamp: "The task's due date (epoch milliseconds or ISO-8601); required on create.",
  hs_task_subject: 'The title of the task.',
  hs_task_body: 'The notes of the task, as HTML.',
  hs_task_status: 'The state of the task.',
  hs_task_priority: 'The priority of the task.',
  hs_task_type: 'The kind of task: a to-do, a call or an email.',
  hubspot_owner_id: 'The owner the task is assigned to (an owner id).',
  hs_attachment_ids: 'The ids of the files attached to the task, separated by semicolons.',
  hs_body_preview: 'The start of the task notes as plain text; computed from hs_task_body.',
  hs_createdate: 'The date the task was created.',
  hs_lastmodifieddate: 'The most recent time any property of the task was changed.',
  hs_object_id: 'The unique id of the task; equals the record id.',
};

/** The task catalog's tables: shared/properties/standard-catalogs.ts reads them from here in source, and a deployed bundle from the JSON file bin/build-validators.ts writes of them. */
export const taskTables: CatalogTables = {
  rows: taskPropertyRows,
  labels: taskPropertyLabels,
  descriptions: taskPropertyDescriptions,
  defaultGroup: 'task_information',
  groups: taskGroups,
};
