import { associationLimitsReader } from '../association-limits/association-limit-set';
import { checkConfiguredLimits, limitLinkedChanges } from '../association-limits/enforce-association-limits';
import { isNumericId } from '../records/record-id';
import type { Actor } from '../records/record-values';
import { associationKey, associationsOf, toRecordView, type RecordView } from '../records/record-view';
import { recordNotFound } from '../records/read-records';
import { saveRecordChange } from '../records/save-record';
import * as recordsDb from '../db/records';
import type { CrmRecord } from '../db/records';
import { ValidationError } from '../base/errors';
import { resolveAssociationType } from '../association-types/association-labels';
import { standardAssociationTypes } from '../association-types/association-types';
import {
  checkAssociationLimits,
  invalidAssociationTargets,
  customTypeFinder,
  linkedChangesOf,
  completeLinkedChanges,
  withImpliedTypes,
  type AssociationEntry,
} from '../records/association-entries';
import { objectTypes, requireObjectType, type ObjectType } from '../objects/object-types';

/**
 * The v3 associations of one record (`/crm/v3/objects/<type>/{id}/associations/...`): put, remove and
 * list one record's associations with records of another type. The holder is the record the path
 * names, of a stored type.
 */
import { defaultAssociationLimit, maxAssociationLimit, unpinIfGone } from './record-associations';

interface Target {
  to: ObjectType;
  entries: AssociationEntry[];
}

async function resolveTarget(
  hubId: number,
  holder: ObjectType,
  holderId: string,
  toToken: string,
  toObjectId: string,
  typeToken: string,
): Promise<Target> {
  if (!isNumericId(holderId)) throw recordNotFound(holderId);
  const to = requireObjectType(toToken, 'toObjectType');
  const type = await resolveAssociationType(hubId, holder, to, typeToken);
  if (!isNumericId(toObjectId) || (to.id === holder.id && toObjectId === holderId))
    throw invalidAssociationTargets([{ type: to, id: toObjectId }]);
  return { to, entries: [{ type, to, toObjectId }] };
}

/**
 * Associates a record with another record. A record of a stored type (contact, company, deal,
 * ticket) must exist in the same hub and gets the paired type on its side, in the same
 * transaction; ids of types not stored (activities) are taken as given.
 */
export async function associateRecord(
  actor: Actor,
  holder: ObjectType,
  holderId: string,
  toToken: string,
  toObjectId: string,
  typeToken: string,
): Promise<RecordView> {
  const target = await resolveTarget(actor.hubId, holder, holderId, toToken, toObjectId, typeToken);
  const entries = target.entries.flatMap(withImpliedTypes);
  const limits = associationLimitsReader(actor.hubId);
  const saved = await saveRecordChange(holder, actor.hubId, holderId, async (record) => {
    const additions = Object.fromEntries(
      entries.map((entry) => [associationKey(entry.to.id, entry.toObjectId, entry.type.typeId), entry.type.name]),
    );
    if (Object.keys(additions).every((key) => key in record.associations)) return undefined;
    const next: CrmRecord = {
      ...record,
      associations: { ...record.associations, ...additions },
      version: record.version + 1,
    };
    checkAssociationLimits(holder, next, record);
    const limitSet = await limits();
    checkConfiguredLimits(limitSet, holder, next, [record]);
    const read = (type: ObjectType, id: string) => recordsDb.findRecord(type, actor.hubId, id);
    const linked = await completeLinkedChanges(
      holder,
      holderId,
      await linkedChangesOf(holder, holderId, record.associations, next.associations, customTypeFinder(actor.hubId)),
      read,
    );
    return {
      record: next,
      expectedVersion: record.version,
      addUnique: [],
      removeUnique: [],
      linked: await limitLinkedChanges(limitSet, holder, linked, read),
    };
  });
  if (!saved) throw recordNotFound(holderId);
  return toRecordView(holder, saved.write?.record ?? saved.record, { associations: objectTypes });
}

/** The keys to drop: an unlabeled type takes the primary type that implies it along. */
function keysToRemove(holder: ObjectType, entry: AssociationEntry): AssociationEntry[] {
  const implying = standardAssociationTypes.filter(
    (type) => type.fromObjectTypeId === holder.id && type.impliesTypeId === entry.type.typeId,
  );
  return [entry, ...implying.map((type) => ({ ...entry, type }))];
}

/** Removes an association; removing the pinned activity's last association unpins it. */
export async function disassociateRecord(
  actor: Actor,
  holder: ObjectType,
  holderId: string,
  toToken: string,
  toObjectId: string,
  typeToken: string,
): Promise<void> {
  const target = await resolveTarget(actor.hubId, holder, holderId, toToken, toObjectId, typeToken);
  const entries = target.entries.flatMap((entry) => keysToRemove(holder, entry));
  const saved = await saveRecordChange(holder, actor.hubId, holderId, async (record) => {
    const present = entries.filter(
      (entry) => associationKey(entry.to.id, entry.toObjectId, entry.type.typeId) in record.associations,
    );
    if (present.length === 0) return undefined;
    const associations = { ...record.associations };
    for (const entry of present) delete associations[associationKey(entry.to.id, entry.toObjectId, entry.type.typeId)];
    const next: CrmRecord = {
      ...record,
      associations,
      ...unpinIfGone(actor, record, associations),
      version: record.version + 1,
    };
    return {
      record: next,
      expectedVersion: record.version,
      addUnique: [],
      removeUnique: [],
      linked: await linkedChangesOf(holder, holderId, record.associations, associations, customTypeFinder(actor.hubId)),
    };
  });
  if (!saved) throw recordNotFound(holderId);
}

export interface V3RecordAssociationList {
  results: { id: string; type: string }[];
  paging?: { next: { after: string; link: string } };
}

/** The v3 read: the record's associations with one object type, one entry per type, paged by record id. One GetItem. */
export async function listV3RecordAssociations(
  hubId: number,
  holder: ObjectType,
  holderId: string,
  toToken: string,
  query: { limit?: number; after?: string },
  linkFor: (after: string) => string,
): Promise<V3RecordAssociationList> {
  const to = requireObjectType(toToken, 'toObjectType');
  const limit = query.limit ?? defaultAssociationLimit;
  if (!Number.isInteger(limit) || limit < 1 || limit > maxAssociationLimit) {
    throw new ValidationError(`limit must be between 1 and ${maxAssociationLimit}`, {
      context: { limit: [String(query.limit)] },
    });
  }
  const record = isNumericId(holderId) ? await recordsDb.findRecord(holder, hubId, holderId) : undefined;
  if (!record) throw recordNotFound(holderId);
  const entries = associationsOf(record, [to])?.[to.name]?.results ?? [];
  const after = query.after;
  const ids = [...new Set(entries.map((entry) => entry.id))].filter(
    (id) => after === undefined || id.length > after.length || (id.length === after.length && id > after),
  );
  const pageIds = new Set(ids.slice(0, limit));
  const results = entries.filter((entry) => pageIds.has(entry.id));
  const last = ids[limit - 1];
  return ids.length > limit && last ? { results, paging: { next: { after: last, link: linkFor(last) } } } : { results };
}
