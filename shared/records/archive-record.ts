import type { ObjectType } from '../objects/object-types';
import { nowMs } from '../base/clock';
import * as recordsDb from '../db/records';
import { maxTransactionItems } from '../db/records';
import type { LinkedChange } from '../db/records';
import { mapConcurrently } from '../base/map-concurrently';
import { conflicted, retryOnConflict } from '../base/retry';
import type { CrmRecord } from '../db/records';
import { orderFormsOfRecord, searchFormsOf } from './search-forms';
import { clearedPins, customTypeFinder, linkedChangesOf } from './association-entries';
import { isNumericId } from './record-id';
import { saveRecordChange } from './save-record';
import { leaveAllLists } from '../lists/record-lists';
import { rulesOf } from './type-rules-lookup';

/** Records whose side of an archived record's associations is removed after its transaction, at once. */
const deferredConcurrency = 8;

/**
 * Moves a record to the recycle bin: the active item goes, an archived copy stays readable with
 * archived=true, its unique values (domain, email) are freed and the stored records associated
 * with it lose their side of the association, in one transaction as far as it holds them (the
 * rest right after it). Returns false when there was no such record.
 */
export async function archiveRecord(type: ObjectType, hubId: number, id: string): Promise<boolean> {
  if (!isNumericId(id)) return false;
  let deferred: LinkedChange[] = [];
  const saved = await saveRecordChange(type, hubId, id, async (record) => {
    const now = new Date(nowMs()).toISOString();
    const changes = await clearedPins(
      type,
      id,
      await linkedChangesOf(type, id, record.associations, {}, customTypeFinder(hubId)),
      (other, otherId) => recordsDb.findRecord(other, hubId, otherId),
    );
    const write: recordsDb.RecordWrite = {
      record: { ...record, archived: true, archivedAt: now, uniqueValues: [], version: record.version + 1 },
      expectedVersion: record.version,
      addUnique: [],
      removeUnique: record.uniqueValues,
      linked: [],
      archive: recordsDb.archivingWrites,
    };
    // One transaction holds maxTransactionItems: the record's own items (ownItemCount) and each linked
    // record, twice when it loses a pin. Links past what fits are removed right after it.
    // As saveRecordChange completes the write: the associations and ordered-index places as read, the type's link counts.
    const completed = {
      ...write,
      previousAssociations: record.associations,
      previousOrder: orderFormsOfRecord(type, record),
      linksToSelf: rulesOf(type).linksToSelf,
    };
    let room = Math.max(
      0,
      maxTransactionItems - recordsDb.ownItemCount(type, hubId, completed, searchFormsOf(type, completed.record)),
    );
    const linked: LinkedChange[] = [];
    for (const change of changes) {
      const items = change.unpin ? 2 : 1;
      if (items > room) break;
      linked.push(change);
      room -= items;
    }
    deferred = changes.slice(linked.length);
    return { ...write, linked };
  });
  if (!saved) return false;
  await mapConcurrently(deferred, deferredConcurrency, (change) =>
    change.unpin
      ? recordsDb.writeLinkedChange(hubId, change)
      : recordsDb.removeAssociationKeys(
          hubId,
          change.type,
          change.id,
          change.remove,
          rulesOf(type).linksToSelf !== undefined && change.type.id === type.id,
        ),
  );
  return true;
}

/**
 * Deletes a record for good (no recycle bin), active or archived: its item, projection, ordered-index
 * places and unique values in one transaction on condition of the version read, read again when a
 * concurrent change won. The record deleted, or undefined when there was none; `exhausted` answers
 * (or throws) when every retry met a change. The other side of its associations is the caller's (the GDPR delete
 * forgets them; a fixtures rollback deletes both sides).
 */
export async function deleteRecordForGoodById(
  type: ObjectType,
  hubId: number,
  id: string,
  exhausted: () => CrmRecord | undefined,
): Promise<CrmRecord | undefined> {
  return retryOnConflict(async () => {
    const active = await recordsDb.findRecord(type, hubId, id);
    const record = active ?? (await recordsDb.findRecord(type, hubId, id, true));
    if (!record) return undefined;
    const outcome = await recordsDb.deleteRecordForGood(
      type,
      hubId,
      record,
      active === undefined,
      active ? orderFormsOfRecord(type, active) : undefined,
    );
    if (outcome !== 'deleted') return conflicted;
    await leaveAllLists(type, hubId, record.id);
    return record;
  }, exhausted);
}
