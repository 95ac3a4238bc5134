/**
 * What the five activity catalogs (catalogs/notes.ts, calls.ts, emails.ts, meetings.ts and tasks.ts)
 * share: `hs_timestamp` first, then the type's own rows, then `hubspot_owner_id`,
 * `hs_attachment_ids`, `hs_body_preview`, `hs_createdate`, `hs_lastmodifieddate` and `hs_object_id`,
 * with the same labels and descriptions but for the type's word, and one group holding every row.
 * Which of these rows are sourced and which inferred, each type's module says in its header.
 */
import type { PropertyGroup } from './property-definition';
import {
  calculated,
  checkbox,
  datetime,
  number,
  readOnly,
  select,
  text,
  type CatalogRow,
  type CatalogTables,
  type CatalogTexts,
} from './standard-catalog';

/** One activity type's part of its catalog. */
export interface ActivitySpec {
  /** The type's word in the shared descriptions (`note`). */
  singular: string;
  /** The one group of the catalog, which holds every row (`note_information`). */
  group: { name: string; label: string };
  /** The label and description of `hs_timestamp` (a task's is its due date). */
  timestamp: { label: string; description: string };
  /** What `hs_body_preview` is the start of (`note body`) and computed from (`hs_note_body`). */
  bodyPreview: { of: string; from: string };
  /** The type's own rows, labels and descriptions: those between `hs_timestamp` and `hubspot_owner_id`. */
  rows: readonly CatalogRow[];
  labels: CatalogTexts;
  descriptions: CatalogTexts;
}

/** The rows every activity ends with, after its own. */
const closingRows: readonly CatalogRow[] = [
  { name: 'hubspot_owner_id', ...select, referencedObjectType: 'OWNER' },
  // Inferred: the ids name files of the account's file manager, so the catalog lists none.
  { name: 'hs_attachment_ids', ...checkbox, externalOptions: true },
  { name: 'hs_body_preview', ...text, ...calculated },
  { name: 'hs_createdate', ...datetime, ...readOnly },
  { name: 'hs_lastmodifieddate', ...datetime, ...readOnly },
  { name: 'hs_object_id', ...number, ...readOnly },
];

const closingLabels: CatalogTexts = {
  hubspot_owner_id: 'Activity assigned to',
  hs_attachment_ids: 'Attached file IDs',
  hs_body_preview: 'Body preview',
  hs_createdate: 'Object create date/time',
  hs_lastmodifieddate: 'Last modified date',
  hs_object_id: 'Record ID',
};

function closingDescriptions({ singular, bodyPreview }: ActivitySpec): CatalogTexts {
  return {
    hubspot_owner_id: `The owner the ${singular} is assigned to (an owner id).`,
    hs_attachment_ids: `The ids of the files attached to the ${singular}, separated by semicolons.`,
    hs_body_preview: `The start of the ${bodyPreview.of} as plain text; computed from ${bodyPreview.from}.`,
    hs_createdate: `The date the ${singular} was created.`,
    hs_lastmodifieddate: `The most recent time any property of the ${singular} was changed.`,
    hs_object_id: `The unique id of the ${singular}; equals the record id.`,
  };
}

/**
 * An activity type's catalog tables: shared/properties/standard-catalogs.ts reads them from its
 * module in source, and a deployed bundle from the JSON file bin/build-validators.ts writes of them.
 */
export function activityTables(spec: ActivitySpec): CatalogTables {
  const groups: readonly PropertyGroup[] = [{ ...spec.group, displayOrder: 0, archived: false }];
  return {
    rows: [{ name: 'hs_timestamp', ...datetime }, ...spec.rows, ...closingRows],
    labels: { hs_timestamp: spec.timestamp.label, ...spec.labels, ...closingLabels },
    descriptions: { hs_timestamp: spec.timestamp.description, ...spec.descriptions, ...closingDescriptions(spec) },
    defaultGroup: spec.group.name,
    groups,
  };
}
