import { mapConcurrently } from '../base/map-concurrently';
import {
  findAssociationLimitMark,
  moveAssociationLimitMark,
  type AssociationLimitMark,
  type MarkedRecord,
} from '../db/association-limit-markers';
import { findObjectSchema } from '../db/object-schemas';
import { associatedIdsOf, maxAssociationsPerRecord, type CrmRecord } from '../db/records';
import type { ObjectType } from '../objects/object-type';
import { typedItemOf, type ChangeRecord } from '../webhooks/record-changes';

/**
 * A record is near its association limit toward a to-type from this many distinct associated
 * records of that type (80 % of maxAssociationsPerRecord), and at it from the limit itself, or
 * sooner when its association keys (every type's, every label's) leave no room for another.
 */
export const nearAssociationLimitFraction = 0.8;
export const nearAssociationLimitThreshold = Math.ceil(maxAssociationsPerRecord * nearAssociationLimitFraction);

/** Records worked on side by side within one stream batch. */
const recordsInFlight = 8;
/** Reads and moves of one marker before the batch fails (the stream then hands it out again). */
const attemptsPerMarker = 3;

export interface TrackingOptions {
  /** Only these accounts' changes (a local runtime sharing the table with other tests). */
  acceptsHub?: (hubId: number) => boolean;
}

/** One record's changes within a batch: the to-types any of its images came near the limit toward, and its last state. */
interface TrackedRecord {
  hubId: number;
  type: ObjectType;
  recordId: string;
  toTypeIds: Set<string>;
  /** The active record after the batch's last change of it; undefined once archived, merged away or deleted. */
  last: CrmRecord | undefined;
}

/** The to-types a record's associations name at least `nearAssociationLimitThreshold` distinct records of. */
function crowdedToTypes(record: CrmRecord): string[] {
  const counts = new Map<string, number>();
  for (const key of Object.keys(record.associations)) {
    const toTypeId = key.split('/')[0] ?? '';
    counts.set(toTypeId, (counts.get(toTypeId) ?? 0) + 1);
  }
  // A key count is an upper bound of the distinct ids (several labels per record): most records stop here.
  return [...counts]
    .filter(([, keys]) => keys >= nearAssociationLimitThreshold)
    .map(([toTypeId]) => toTypeId)
    .filter((toTypeId) => associatedIdsOf(record.associations, toTypeId).size >= nearAssociationLimitThreshold);
}

/** Where a record stands toward a to-type: no mark below the threshold. */
function markOf(record: CrmRecord | undefined, toTypeId: string, label: string): AssociationLimitMark | undefined {
  if (!record) return undefined;
  const usage = associatedIdsOf(record.associations, toTypeId).size;
  if (usage < nearAssociationLimitThreshold) return undefined;
  const isFull =
    usage >= maxAssociationsPerRecord || Object.keys(record.associations).length >= maxAssociationsPerRecord;
  return { level: isFull ? 'AT' : 'NEAR', usage, label };
}

/**
 * The record changes of one stream batch, per record. Only active record items count: an archive,
 * a merge or a delete removes the active item (its marks go), a restore writes it again; archived
 * items' changes are skipped, so the order in which two items of one transaction reach the
 * consumer (they may sit in different shards) does not matter.
 */
function trackedRecordsOf(changes: readonly ChangeRecord[], options: TrackingOptions): TrackedRecord[] {
  const records = new Map<string, TrackedRecord>();
  for (const change of changes) {
    const after = typedItemOf(change.newImage);
    const before = typedItemOf(change.oldImage);
    const typed = after ?? before;
    if (!typed || typed.item.isArchived) continue;
    if (options.acceptsHub && !options.acceptsHub(typed.item.hubId)) continue;
    const id = `${typed.item.hubId}/${typed.type.id}/${typed.item.record.id}`;
    const tracked = records.get(id) ?? {
      hubId: typed.item.hubId,
      type: typed.type,
      recordId: typed.item.record.id,
      toTypeIds: new Set<string>(),
      last: undefined,
    };
    for (const image of [before, after]) {
      if (image && !image.item.isArchived)
        for (const toTypeId of crowdedToTypes(image.item.record)) tracked.toTypeIds.add(toTypeId);
    }
    tracked.last = after && !after.item.isArchived ? after.item.record : undefined;
    records.set(id, tracked);
  }
  return [...records.values()].filter((record) => record.toTypeIds.size > 0);
}

/** A record's label: its type's primary display property (a custom type's from its schema: one GetItem), else its id. */
async function labelOf(record: TrackedRecord): Promise<string> {
  const current = record.last;
  if (!current) return record.recordId;
  const property = record.type.isCustom
    ? (await findObjectSchema(record.hubId, record.type.id.slice(2)))?.primaryDisplayProperty
    : record.type.primaryDisplayProperty;
  const value = property === undefined ? undefined : current.properties[property];
  return value === undefined || value === '' ? record.recordId : value;
}

async function trackRecord(record: TrackedRecord): Promise<void> {
  const label = await labelOf(record);
  for (const toObjectTypeId of record.toTypeIds) {
    const marked: MarkedRecord = {
      hubId: record.hubId,
      fromObjectTypeId: record.type.id,
      toObjectTypeId,
      recordId: record.recordId,
    };
    const next = markOf(record.last, toObjectTypeId, label);
    let outcome: 'moved' | 'stale' | 'same' = 'stale';
    for (let attempt = 0; attempt < attemptsPerMarker && outcome === 'stale'; attempt += 1) {
      const current = await findAssociationLimitMark(marked);
      const isSame = current?.level === next?.level && current?.usage === next?.usage && current?.label === next?.label;
      outcome = isSame ? 'same' : await moveAssociationLimitMark(marked, current, next);
    }
    if (outcome === 'stale') throw new Error(`association limit marker of ${JSON.stringify(marked)} kept changing`);
  }
}

/**
 * The association limit consumer of the table's stream: for each record whose associations toward a
 * to-type reach nearAssociationLimitThreshold (in either image), the record's marker for that to-type
 * follows its last state, with the pair's totals (shared/db/association-limit-markers.ts). A change
 * the stream hands out again finds the marker already where it leads and writes nothing. Records
 * below the threshold in every image cost no call. Writes only the association limit partition.
 */
export async function trackAssociationLimits(
  changes: readonly ChangeRecord[],
  options: TrackingOptions = {},
): Promise<{ records: number }> {
  const records = trackedRecordsOf(changes, options);
  await mapConcurrently(records, recordsInFlight, trackRecord);
  return { records: records.length };
}
