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
import { activityTables } from '../activity-catalog';
import { html, optionsOf, select, text } from '../standard-catalog';

/** The task catalog's tables (activity-catalog.ts adds `hs_timestamp` and the rows every activity ends with). */
export const tables = activityTables({
  singular: 'task',
  group: { name: 'task_information', label: 'Task information' },
  timestamp: {
    label: 'Due date',
    description: "The task's due date (epoch milliseconds or ISO-8601); required on create.",
  },
  bodyPreview: { of: 'task notes', from: 'hs_task_body' },
  rows: [
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
  ],
  labels: {
    hs_task_subject: 'Task title',
    hs_task_body: 'Task notes',
    hs_task_status: 'Task status',
    hs_task_priority: 'Priority',
    hs_task_type: 'Task type',
  },
  descriptions: {
    hs_task_subject: 'The title of the task.',
    hs_task_body: 'The notes of the task, as HTML.',
    hs_task_status: 'The state of the task.',
    hs_task_priority: 'The priority of the task.',
    hs_task_type: 'The kind of task: a to-do, a call or an email.',
  },
});
