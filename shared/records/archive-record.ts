import type { ObjectType } from '../objects/object-types';
import { parseAssociationKey } from './record-view';
import { companyObjectType } from '../objects/object-types';
import { inverseTypeIdOf } from '../association-types/association-labels';
import { nowMs } from '../base/clock';
import * as recordsDb from '../db/records';
import { maxTransactionItems } from '../db/records';
import type { LinkedCompanyChange } from '../db/records';
import { isNumericId } from './record-id';
import { saveRecordChange } from './save-record';

/**
 * Moves a company to the recycle bin: the active item goes, an archived copy stays readable
 * with archived=true, its unique values (domain) are freed and companies linked to it lose
 * the reverse association, in one transaction. Returns false when there was no such company.
 */
export async function archiveRecord(type: ObjectType, hubId: number, companyId: string): Promise<boolean> {
  if (!isNumericId(companyId)) return false;
  let deferred: LinkedCompanyChange[] = [];
  const saved = await saveRecordChange(type, hubId, companyId, async (record) => {
    const now = new Date(nowMs()).toISOString();
    const reverseKeys = new Map<string, string[]>();
    for (const key of Object.keys(record.associations)) {
      const parsed = parseAssociationKey(key);
      if (parsed?.toObjectTypeId !== companyObjectType.id) continue;
      const inverse = await inverseTypeIdOf(hubId, companyObjectType.id, parsed.typeId);
      reverseKeys.set(parsed.toObjectId, [
        ...(reverseKeys.get(parsed.toObjectId) ?? []),
        `${companyObjectType.id}/${companyId}/${inverse}`,
      ]);
    }
    const changes = [...reverseKeys].map(
      ([linkedId, remove]): LinkedCompanyChange => ({ companyId: linkedId, set: {}, remove }),
    );
    // A transaction holds 100 items (the record twice, its search projection, its unique values):
    // links past what fits are removed right after it.
    const room = Math.max(0, maxTransactionItems - 3 - record.uniqueValues.length);
    const linked = changes.slice(0, room);
    deferred = changes.slice(room);
    return {
      record: { ...record, archived: true, archivedAt: now, uniqueValues: [], version: record.version + 1 },
      expectedVersion: record.version,
      addUnique: [],
      removeUnique: record.uniqueValues,
      linked,
      archive: true,
    };
  });
  if (!saved) return false;
  for (const change of deferred) await recordsDb.removeAssociationKeys(hubId, change.companyId, change.remove);
  return true;
}
