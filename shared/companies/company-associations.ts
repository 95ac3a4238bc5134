import { nowMs } from '../clock';
import { isNumericId } from './company-id';
import { appendHistory, historyEntry, type Actor } from './company-values';
import { associationKey, toCompanyView, type CompanyView } from './company-view';
import { companyNotFound } from './read-companies';
import { saveCompanyChange } from './save-company';
import type { CompanyRecord } from '../db/companies';
import { requireObjectType, resolveCompanyAssociationType } from '../associations/association-labels';
import { standardAssociationTypes } from '../associations/association-types';
import {
  associatedActivityIds, checkAssociationLimits, invalidAssociationTargets, reverseCompanyLinks, withImpliedTypes, type AssociationEntry,
} from './company-association-entries';
import { objectTypes, type ObjectType } from '../associations/object-types';

interface Target {
  to: ObjectType;
  entries: AssociationEntry[];
}

async function resolveTarget(hubId: number, companyId: string, toToken: string, toObjectId: string, typeToken: string): Promise<Target> {
  if (!isNumericId(companyId)) throw companyNotFound(companyId);
  const to = requireObjectType(toToken, 'toObjectType');
  const type = await resolveCompanyAssociationType(hubId, to, typeToken);
  if (!isNumericId(toObjectId) || (to.id === '0-2' && toObjectId === companyId)) throw invalidAssociationTargets([toObjectId]);
  return { to, entries: [{ type, to, toObjectId }] };
}

/**
 * Associates a company with another record. Records of other object types are not stored by
 * this service, so their ids are taken as given; a company target must exist in the same hub
 * and gets the paired type on its side, in the same transaction.
 */
export async function associateCompany(actor: Actor, companyId: string, toToken: string, toObjectId: string, typeToken: string): Promise<CompanyView> {
  const target = await resolveTarget(actor.hubId, companyId, toToken, toObjectId, typeToken);
  const entries = target.entries.flatMap(withImpliedTypes);
  const saved = await saveCompanyChange(actor.hubId, companyId, (record) => {
    const additions = Object.fromEntries(entries.map((entry) => [associationKey(entry.to.id, entry.toObjectId, entry.type.typeId), entry.type.name]));
    if (Object.keys(additions).every((key) => key in record.associations)) return undefined;
    const next: CompanyRecord = { ...record, associations: { ...record.associations, ...additions }, version: record.version + 1 };
    checkAssociationLimits(next);
    return { record: next, expectedVersion: record.version, addUnique: [], removeUnique: [], linked: reverseCompanyLinks(companyId, entries, 'set') };
  });
  if (!saved) throw companyNotFound(companyId);
  return toCompanyView(saved.write?.record ?? saved.record, { associations: objectTypes });
}

/** The keys to drop: an unlabeled type takes the primary type that implies it along. */
function keysToRemove(entry: AssociationEntry): AssociationEntry[] {
  const implying = standardAssociationTypes.filter((type) => type.fromObjectTypeId === '0-2' && type.impliesTypeId === entry.type.typeId);
  return [entry, ...implying.map((type) => ({ ...entry, type }))];
}

/** Removes an association; removing the pinned activity's last association unpins it. */
export async function disassociateCompany(actor: Actor, companyId: string, toToken: string, toObjectId: string, typeToken: string): Promise<void> {
  const target = await resolveTarget(actor.hubId, companyId, toToken, toObjectId, typeToken);
  const entries = target.entries.flatMap(keysToRemove);
  const saved = await saveCompanyChange(actor.hubId, companyId, (record) => {
    const present = entries.filter((entry) => associationKey(entry.to.id, entry.toObjectId, entry.type.typeId) in record.associations);
    if (present.length === 0) return undefined;
    const associations = { ...record.associations };
    for (const entry of present) delete associations[associationKey(entry.to.id, entry.toObjectId, entry.type.typeId)];
    let { properties, history } = record;
    const pinned = properties.hs_pinned_engagement_id;
    if (pinned !== undefined && !associatedActivityIds(associations).has(pinned)) {
      const now = new Date(nowMs()).toISOString();
      properties = { ...properties };
      delete properties.hs_pinned_engagement_id;
      history = { ...history, hs_pinned_engagement_id: appendHistory(history.hs_pinned_engagement_id, historyEntry('', now, actor)) };
    }
    const next: CompanyRecord = { ...record, associations, properties, history, version: record.version + 1 };
    return { record: next, expectedVersion: record.version, addUnique: [], removeUnique: [], linked: reverseCompanyLinks(companyId, present, 'remove') };
  });
  if (!saved) throw companyNotFound(companyId);
}
