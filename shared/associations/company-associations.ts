import { companyObjectType } from '../objects/object-types';
import { isNumericId } from '../records/record-id';
import type { Actor } from '../records/record-values';
import { associationKey, associationsOf, toRecordView, type RecordView } from '../records/record-view';
import { recordNotFound } from '../records/read-records';
import { saveRecordChange } from '../records/save-record';
import * as companies from '../db/records';
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
import { defaultAssociationLimit, maxAssociationLimit, unpinIfGone } from './record-associations';

interface Target {
  to: ObjectType;
  entries: AssociationEntry[];
}

async function resolveTarget(
  hubId: number,
  companyId: string,
  toToken: string,
  toObjectId: string,
  typeToken: string,
): Promise<Target> {
  if (!isNumericId(companyId)) throw recordNotFound(companyId);
  const to = requireObjectType(toToken, 'toObjectType');
  const type = await resolveAssociationType(hubId, companyObjectType, to, typeToken);
  if (!isNumericId(toObjectId) || (to.id === '0-2' && toObjectId === companyId))
    throw invalidAssociationTargets([{ type: to, id: toObjectId }]);
  return { to, entries: [{ type, to, toObjectId }] };
}

/**
 * Associates a company with another record. A record of a stored type (contact, company, deal,
 * ticket) must exist in the same hub and gets the paired type on its side, in the same
 * transaction; ids of types not stored yet (activities) are taken as given.
 */
export async function associateCompany(
  actor: Actor,
  companyId: string,
  toToken: string,
  toObjectId: string,
  typeToken: string,
): Promise<RecordView> {
  const target = await resolveTarget(actor.hubId, companyId, toToken, toObjectId, typeToken);
  const entries = target.entries.flatMap(withImpliedTypes);
  const saved = await saveRecordChange(companyObjectType, actor.hubId, companyId, async (record) => {
    const additions = Object.fromEntries(
      entries.map((entry) => [associationKey(entry.to.id, entry.toObjectId, entry.type.typeId), entry.type.name]),
    );
    if (Object.keys(additions).every((key) => key in record.associations)) return undefined;
    const next: CrmRecord = {
      ...record,
      associations: { ...record.associations, ...additions },
      version: record.version + 1,
    };
    checkAssociationLimits(companyObjectType, next, record);
    return {
      record: next,
      expectedVersion: record.version,
      addUnique: [],
      removeUnique: [],
      linked: await completeLinkedChanges(
        companyObjectType,
        companyId,
        await linkedChangesOf(
          companyObjectType,
          companyId,
          record.associations,
          next.associations,
          customTypeFinder(actor.hubId),
        ),
        (type, id) => companies.findRecord(type, actor.hubId, id),
      ),
    };
  });
  if (!saved) throw recordNotFound(companyId);
  return toRecordView(companyObjectType, saved.write?.record ?? saved.record, { associations: objectTypes });
}

/** The keys to drop: an unlabeled type takes the primary type that implies it along. */
function keysToRemove(entry: AssociationEntry): AssociationEntry[] {
  const implying = standardAssociationTypes.filter(
    (type) => type.fromObjectTypeId === '0-2' && type.impliesTypeId === entry.type.typeId,
  );
  return [entry, ...implying.map((type) => ({ ...entry, type }))];
}

/** Removes an association; removing the pinned activity's last association unpins it. */
export async function disassociateCompany(
  actor: Actor,
  companyId: string,
  toToken: string,
  toObjectId: string,
  typeToken: string,
): Promise<void> {
  const target = await resolveTarget(actor.hubId, companyId, toToken, toObjectId, typeToken);
  const entries = target.entries.flatMap(keysToRemove);
  const saved = await saveRecordChange(companyObjectType, actor.hubId, companyId, async (record) => {
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
      linked: await linkedChangesOf(
        companyObjectType,
        companyId,
        record.associations,
        associations,
        customTypeFinder(actor.hubId),
      ),
    };
  });
  if (!saved) throw recordNotFound(companyId);
}

export interface CompanyAssociationList {
  results: { id: string; type: string }[];
  paging?: { next: { after: string; link: string } };
}

/** The v3 read: the company's associations with one object type, one entry per type, paged by record id. One GetItem. */
export async function listCompanyAssociations(
  hubId: number,
  companyId: string,
  toToken: string,
  query: { limit?: number; after?: string },
  linkFor: (after: string) => string,
): Promise<CompanyAssociationList> {
  const to = requireObjectType(toToken, 'toObjectType');
  const limit = query.limit ?? defaultAssociationLimit;
  if (!Number.isInteger(limit) || limit < 1 || limit > maxAssociationLimit) {
    throw new ValidationError(`limit must be between 1 and ${maxAssociationLimit}`, {
      context: { limit: [String(query.limit)] },
    });
  }
  const record = isNumericId(companyId) ? await companies.findRecord(companyObjectType, hubId, companyId) : undefined;
  if (!record) throw recordNotFound(companyId);
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
