import { config } from '../base/config';
import { findDataResetStarts } from '../db/account-resets';
import { changedRecordItemOf, type ChangeRecord } from './record-changes';

/**
 * The stream records without the changes a test account's reset or delete makes void: a reset
 * (shared/db/account-purge.ts) holds the account's writes, stamps the account item with
 * `dataResetFromMs` (the service clock, which also stamps records' `updatedAt`) and then removes
 * the data, so a record item whose `updatedAt` is before that start was written before the reset:
 * its creation or change (still in the stream) is dropped, and so is its removal by the reset, which
 * would otherwise read as a GDPR delete (privacyDeletion). A delete removes the account item last:
 * every change of an account without one is dropped. The record item is the new image's, else the
 * old one's; a GDPR delete of a record written after the reset still fires. Records of no record
 * item, or of a hub `accepts` refuses (the caller drops those), pass unread.
 *
 * The starts it read come back with the records: the batches made from them are recorded on
 * condition that their account still has that start (shared/db/webhook-pending.ts
 * insertPendingBatchesSinceStarts), so a reset that begins after this read voids them too.
 *
 * Only where the sandbox controls exist (config.sandboxControls): elsewhere no account is a test
 * account and nothing is read. There it costs one strongly consistent BatchGetItem per stream batch
 * with record items (the distinct accounts' items, one attribute).
 */
export async function withoutResetChanges(
  records: readonly ChangeRecord[],
  accepts: (hubId: number) => boolean,
): Promise<{ records: ChangeRecord[]; resetStarts?: ReadonlyMap<number, number | null> }> {
  if (!config.sandboxControls) return { records: [...records] };
  const items = records.map((record) => {
    const item = changedRecordItemOf(record);
    return item && accepts(item.hubId) ? item : undefined;
  });
  const hubIds = items.flatMap((item) => (item ? [item.hubId] : []));
  if (hubIds.length === 0) return { records: [...records] };
  const starts = await findDataResetStarts(hubIds);
  const kept = records.filter((_, index) => {
    const item = items[index];
    if (!item) return true;
    if (!starts.has(item.hubId)) return false;
    const start = starts.get(item.hubId);
    // An unreadable time is not before anything: kept.
    return typeof start !== 'number' || !(Date.parse(item.record.updatedAt) < start);
  });
  return { records: kept, resetStarts: starts };
}
