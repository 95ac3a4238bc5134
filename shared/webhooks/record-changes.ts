import { recordItemOf, recordKeyPrefixOf, type CrmRecord, type RecordItem } from '../db/records';
import type { ItemImage } from '../db/webhooks';
import { objectTypeById, storedObjectTypes, type ObjectType } from '../objects/object-types';
import { customTypeIdOfKeyPrefix } from '../objects/custom-object-types';
import { findStandardTypeFrom } from '../association-types/association-types';
import { eventObjectOf, isWebhookEventType, type EventObject } from './subscription-types';

/** One committed item change from the table's stream, with its images already unmarshalled. */
export interface ChangeRecord {
  /** The stream record's id: unique per change, the same when the stream hands it out again. */
  recordId: string;
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE';
  newImage?: ItemImage;
  oldImage?: ItemImage;
  /** When the stream saw the change (epoch ms); used only when the record carries no time of its own. */
  approximateAtMs: number;
  /** The stream record's sequence number (increasing within its shard): the webhooks journal orders its entries by it. */
  sequenceNumber?: string;
}

interface ChangeBase {
  hubId: number;
  /**
   * The event object (`contact`, `company`, `deal`, `ticket`, `product`, `line_item`): the
   * subscription type is `<object>.<kind>`. None for a type HubSpot has no such types for (the
   * activities): its changes reach generic `object.*` subscriptions only.
   */
  object: EventObject | undefined;
  /** The record's object type id (`0-1`); legacy deliveries do not carry it. */
  objectTypeId: string;
  objectId: string;
  occurredAt: number;
  changeSource: string;
  sourceId?: string;
  /** Unique within the stream record: with recordId and the subscription it makes the event id. */
  discriminator: string;
  /**
   * Stands for the stream record's id in the event id, when one change can be read from more than
   * one stream record (a removal for good: see recordChangesOf), so both give the same event id.
   */
  eventKey?: string;
}

/**
 * What happened to a record, in HubSpot's webhook terms. A merge is recognized from the item a
 * merge writes for the resulting record: it carries `merge: {primaryObjectId, mergedObjectIds,
 * numberOfPropertiesMoved}` (shared/db/record-merge.ts).
 */
export type RecordChange =
  | (ChangeBase & { kind: 'creation' | 'deletion' | 'restore' | 'privacyDeletion' })
  | (ChangeBase & { kind: 'propertyChange'; propertyName: string; propertyValue: string })
  | (ChangeBase & {
      kind: 'associationChange';
      associationType: string;
      fromObjectId: string;
      toObjectId: string;
      associationRemoved: boolean;
      isPrimaryAssociation: boolean;
    })
  | (ChangeBase & {
      kind: 'merge';
      primaryObjectId: string;
      mergedObjectIds: string[];
      newObjectId: string;
      numberOfPropertiesMoved: number;
    });

export type RecordChangeKind = RecordChange['kind'];

type Base = Omit<ChangeBase, 'discriminator'>;

const timeOf = (iso: string | undefined, fallback: number): number => {
  const parsed = iso === undefined ? Number.NaN : Date.parse(iso);
  return Number.isFinite(parsed) ? parsed : fallback;
};

/** Who made the write: the newest history entry written at the record's update time (HubSpot: changeSource/sourceId). */
function sourceOf(record: CrmRecord): { changeSource: string; sourceId?: string } {
  for (const entries of Object.values(record.history ?? {})) {
    const newest = entries[0];
    if (newest && newest.timestamp === record.updatedAt)
      return { changeSource: newest.sourceType, ...(newest.sourceId ? { sourceId: newest.sourceId } : {}) };
  }
  return { changeSource: 'API' };
}

/** `COMPANY_TO_CONTACT`, `CONTACT_TO_COMPANY`, ... from the record's type and the association's target type. */
function associationTypeOf(from: ObjectType, toObjectTypeId: string): string {
  const singular = objectTypeById(toObjectTypeId)?.singular ?? 'object';
  return `${from.singular.toUpperCase()}_TO_${singular.toUpperCase()}`;
}

function associationChanges(type: ObjectType, before: CrmRecord, after: CrmRecord, base: Base): RecordChange[] {
  const changes: RecordChange[] = [];
  const oldKeys = before.associations ?? {};
  const newKeys = after.associations ?? {};
  const emit = (key: string, isRemoved: boolean) => {
    const [toObjectTypeId, toObjectId, rawTypeId] = key.split('/');
    if (toObjectTypeId === undefined || toObjectId === undefined || rawTypeId === undefined) return;
    const associationType = findStandardTypeFrom(type.id, Number(rawTypeId));
    changes.push({
      ...base,
      kind: 'associationChange',
      discriminator: `assoc:${key}:${isRemoved ? 'removed' : 'added'}`,
      associationType: associationTypeOf(type, toObjectTypeId),
      fromObjectId: after.id,
      toObjectId,
      associationRemoved: isRemoved,
      isPrimaryAssociation: associationType?.label === 'Primary',
    });
  };
  for (const key of Object.keys(newKeys)) if (!(key in oldKeys)) emit(key, false);
  for (const key of Object.keys(oldKeys)) if (!(key in newKeys)) emit(key, true);
  return changes;
}

function propertyChanges(before: CrmRecord, after: CrmRecord, base: Base): RecordChange[] {
  const changes: RecordChange[] = [];
  const names = new Set([...Object.keys(before.properties ?? {}), ...Object.keys(after.properties ?? {})]);
  for (const name of names) {
    const oldValue = before.properties?.[name];
    const newValue = after.properties?.[name];
    if (oldValue === newValue) continue;
    const newest = after.history?.[name]?.[0];
    changes.push({
      ...base,
      kind: 'propertyChange',
      discriminator: `prop:${name}`,
      propertyName: name,
      propertyValue: newValue ?? '',
      ...(newest ? { changeSource: newest.sourceType, ...(newest.sourceId ? { sourceId: newest.sourceId } : {}) } : {}),
    });
  }
  return changes;
}

/** A record item of a stored type, that type, and its event object if it has one. */
export interface TypedItem {
  type: ObjectType;
  object: EventObject | undefined;
  item: RecordItem;
}

/** The record item an image holds, of a standard stored type or a custom one; undefined for any other item. */
export function typedItemOf(image: ItemImage | undefined): TypedItem | undefined {
  if (!image) return undefined;
  for (const type of storedObjectTypes) {
    const item = recordItemOf(type, image);
    if (!item) continue;
    return { type, object: eventObjectOf(`${type.singular}.`), item };
  }
  // A custom type's record: its type id is spelled in the key prefix; its changes reach `object.*` subscriptions only.
  const keyPrefix = recordKeyPrefixOf(image);
  const customId = keyPrefix ? customTypeIdOfKeyPrefix(keyPrefix) : undefined;
  const custom = customId ? objectTypeById(customId) : undefined;
  const item = custom ? recordItemOf(custom, image) : undefined;
  return custom && item ? { type: custom, object: undefined, item } : undefined;
}

/** The record item a stream record is about: its new image's, else (a removal) its old image's; undefined for any other item. */
export function changedRecordItemOf(record: ChangeRecord): RecordItem | undefined {
  return (typedItemOf(record.newImage) ?? typedItemOf(record.oldImage))?.item;
}

/** A record item a stream record removed (active or archived), of a type whose records can be removed for good. */
export interface RemovedRecord {
  type: ObjectType;
  hubId: number;
  id: string;
  isArchived: boolean;
}

/**
 * The record item a REMOVE stream record took away, when its type's records can be removed for
 * good (its events include `<object>.privacyDeletion`: contacts, by a GDPR delete); else undefined.
 * Such a removal is a removal for good unless the record lives on elsewhere, which only the table
 * can tell (shared/db/records.ts findRemovedForGood): an archive removes the active item and writes
 * the archived one, a merge removes the merged records and writes their merge pointers, a restore
 * removes the archived item and writes the active one, each in one transaction; a GDPR delete
 * removes the item and leaves nothing of the record.
 */
export function removalOf(record: ChangeRecord): RemovedRecord | undefined {
  if (record.eventName !== 'REMOVE' || record.newImage) return undefined;
  const removed = typedItemOf(record.oldImage);
  if (!removed?.object || !isWebhookEventType(`${removed.object}.privacyDeletion`)) return undefined;
  const { type, item } = removed;
  return { type, hubId: item.hubId, id: item.record.id, isArchived: item.isArchived };
}

/**
 * The changes one stream record stands for, for a record item of any stored type. Active records
 * live in `<PREFIX>#` items and archived ones in `ARCHIVED_<PREFIX>#` items (shared/db/records.ts):
 * an archive removes the one and inserts the other, so the deletion is read from the insert of the
 * archived item alone. A merge removes the merged records and inserts the new one with its merge
 * marker: the merge is read from that insert alone. The removal of a record item is a change only
 * when `isRemovedForGood` says so (see removalOf; the caller asked the table): then a contact fires
 * `privacyDeletion` and `deletion`, under an event key of the record itself, so that the same
 * removal read from two stream records (an archive, then a GDPR delete of the archived contact
 * before the archive's removal was read) gives the same event ids.
 */
export function recordChangesOf(
  record: ChangeRecord,
  isRemovedForGood: (removed: RemovedRecord) => boolean = () => false,
): RecordChange[] {
  const after = typedItemOf(record.newImage);
  const before = typedItemOf(record.oldImage);
  const typed = after ?? before;
  if (!typed) return [];
  const { type, object } = typed;
  const { hubId, isArchived } = typed.item;
  const identity = { hubId, object, objectTypeId: type.id };
  if (record.eventName === 'INSERT' && after) {
    const created = after.item.record;
    if (isArchived) {
      return [
        {
          ...identity,
          objectId: created.id,
          kind: 'deletion',
          occurredAt: timeOf(created.archivedAt, record.approximateAtMs),
          ...sourceOf(created),
          discriminator: 'deletion',
        },
      ];
    }
    const base: Base = {
      ...identity,
      objectId: created.id,
      occurredAt: timeOf(created.updatedAt, record.approximateAtMs),
      ...sourceOf(created),
    };
    const merge = after.item.merge;
    if (merge) {
      return [
        {
          ...base,
          kind: 'merge',
          discriminator: 'merge',
          primaryObjectId: merge.primaryObjectId,
          mergedObjectIds: merge.mergedObjectIds,
          newObjectId: created.id,
          numberOfPropertiesMoved: merge.numberOfPropertiesMoved ?? 0,
        },
      ];
    }
    // A new record starts at version 1; an active item inserted later is a restored one.
    if (created.version > 1) return [{ ...base, kind: 'restore', discriminator: 'insert' }];
    // As HubSpot does, the values and associations a record is created with also fire their change events.
    const empty: CrmRecord = { ...created, properties: {}, associations: {} };
    return [
      { ...base, kind: 'creation', discriminator: 'insert' },
      ...propertyChanges(empty, created, base),
      ...associationChanges(type, empty, created, base),
    ];
  }
  if (record.eventName === 'MODIFY' && after && before && !isArchived) {
    const base: Base = {
      ...identity,
      objectId: after.item.record.id,
      occurredAt: timeOf(after.item.record.updatedAt, record.approximateAtMs),
      ...sourceOf(after.item.record),
    };
    return [
      ...propertyChanges(before.item.record, after.item.record, base),
      ...associationChanges(type, before.item.record, after.item.record, base),
    ];
  }
  const removed = removalOf(record);
  if (removed && isRemovedForGood(removed)) {
    // The removal carries no time or writer of its own: the stream's time, and the API as the source.
    const base: Base = {
      ...identity,
      objectId: removed.id,
      occurredAt: record.approximateAtMs,
      changeSource: 'API',
      eventKey: `removed:${hubId}:${type.id}:${removed.id}`,
    };
    return [
      { ...base, kind: 'privacyDeletion', discriminator: 'privacyDeletion' },
      { ...base, kind: 'deletion', discriminator: 'deletion' },
    ];
  }
  return [];
}
