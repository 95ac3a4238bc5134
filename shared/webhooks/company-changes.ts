import { companyObjectType } from '../objects/object-types';
import { recordItemOf, type CrmRecord } from '../db/records';
import type { ItemImage } from '../db/webhooks';
import { objectTypeById } from '../objects/object-types';
import { findStandardTypeFrom } from '../association-types/association-types';

/** One committed item change from the table's stream, with its images already unmarshalled. */
export interface ChangeRecord {
  /** The stream record's id: unique per change, the same when the stream hands it out again. */
  recordId: string;
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE';
  newImage?: ItemImage;
  oldImage?: ItemImage;
  /** When the stream saw the change (epoch ms); used only when the record carries no time of its own. */
  approximateAtMs: number;
}

interface ChangeBase {
  hubId: number;
  companyId: string;
  occurredAt: number;
  changeSource: string;
  sourceId?: string;
  /** Unique within the stream record: with recordId and the subscription it makes the event id. */
  discriminator: string;
}

/**
 * What happened to a company, in HubSpot's webhook terms. A merge is recognized from the item a
 * merge writes for the resulting record: it carries `merge: {primaryObjectId, mergedObjectIds,
 * numberOfPropertiesMoved}` (shared/db/record-merge.ts).
 */
export type CompanyChange =
  | (ChangeBase & { kind: 'creation' | 'deletion' | 'restore' })
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

/** `COMPANY_TO_CONTACT`, `COMPANY_TO_COMPANY`, ... from the association's target object type. */
function associationTypeOf(toObjectTypeId: string): string {
  const singular = objectTypeById(toObjectTypeId)?.singular ?? 'object';
  return `COMPANY_TO_${singular.toUpperCase()}`;
}

function associationChanges(
  before: CrmRecord,
  after: CrmRecord,
  base: Omit<ChangeBase, 'discriminator'>,
): CompanyChange[] {
  const changes: CompanyChange[] = [];
  const oldKeys = before.associations ?? {};
  const newKeys = after.associations ?? {};
  const emit = (key: string, isRemoved: boolean) => {
    const [toObjectTypeId, toObjectId, rawTypeId] = key.split('/');
    if (toObjectTypeId === undefined || toObjectId === undefined || rawTypeId === undefined) return;
    const type = findStandardTypeFrom('0-2', Number(rawTypeId));
    changes.push({
      ...base,
      kind: 'associationChange',
      discriminator: `assoc:${key}:${isRemoved ? 'removed' : 'added'}`,
      associationType: associationTypeOf(toObjectTypeId),
      fromObjectId: after.id,
      toObjectId,
      associationRemoved: isRemoved,
      isPrimaryAssociation: type?.label === 'Primary',
    });
  };
  for (const key of Object.keys(newKeys)) if (!(key in oldKeys)) emit(key, false);
  for (const key of Object.keys(oldKeys)) if (!(key in newKeys)) emit(key, true);
  return changes;
}

function propertyChanges(
  before: CrmRecord,
  after: CrmRecord,
  base: Omit<ChangeBase, 'discriminator'>,
): CompanyChange[] {
  const changes: CompanyChange[] = [];
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

/**
 * The company changes one stream record stands for. Active companies live in COMPANY# items and
 * archived ones in ARCHIVED_COMPANY# items (shared/db/records.ts): an archive removes the one and
 * inserts the other, so the deletion is read from the insert of the archived item alone.
 */
export function companyChangesOf(record: ChangeRecord): CompanyChange[] {
  const after = record.newImage ? recordItemOf(companyObjectType, record.newImage) : undefined;
  const before = record.oldImage ? recordItemOf(companyObjectType, record.oldImage) : undefined;
  const item = after ?? before;
  if (!item) return [];
  const { hubId, isArchived } = item;
  if (record.eventName === 'INSERT' && after) {
    const company = after.record;
    if (isArchived) {
      return [
        {
          hubId,
          companyId: company.id,
          kind: 'deletion',
          occurredAt: timeOf(company.archivedAt, record.approximateAtMs),
          ...sourceOf(company),
          discriminator: 'deletion',
        },
      ];
    }
    const base = {
      hubId,
      companyId: company.id,
      occurredAt: timeOf(company.updatedAt, record.approximateAtMs),
      ...sourceOf(company),
    };
    const merge = after.merge;
    if (merge) {
      return [
        {
          ...base,
          kind: 'merge',
          discriminator: 'merge',
          primaryObjectId: merge.primaryObjectId,
          mergedObjectIds: merge.mergedObjectIds,
          newObjectId: company.id,
          numberOfPropertiesMoved: merge.numberOfPropertiesMoved ?? 0,
        },
      ];
    }
    // A new company starts at version 1; an active item inserted later is a restored one.
    if (company.version > 1) return [{ ...base, kind: 'restore', discriminator: 'insert' }];
    // As HubSpot does, the values and associations a company is created with also fire their change events.
    const empty: CrmRecord = { ...company, properties: {}, associations: {} };
    return [
      { ...base, kind: 'creation', discriminator: 'insert' },
      ...propertyChanges(empty, company, base),
      ...associationChanges(empty, company, base),
    ];
  }
  if (record.eventName === 'MODIFY' && after && before && !isArchived) {
    const base = {
      hubId,
      companyId: after.record.id,
      occurredAt: timeOf(after.record.updatedAt, record.approximateAtMs),
      ...sourceOf(after.record),
    };
    return [
      ...propertyChanges(before.record, after.record, base),
      ...associationChanges(before.record, after.record, base),
    ];
  }
  return [];
}
