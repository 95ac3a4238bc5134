import { writeJournalEntries } from '../webhooks-journal/journal-events';
import type { DeliveryQueue } from './delivery-queue';
import { generateEvents, prepareStreamBatch, type GenerateOptions } from './generate-events';
import { listMembershipChangesOf, type ListMembershipChange } from './list-membership-changes';
import type { ChangeRecord } from './record-changes';

/** What the webhook event function makes of one stream batch. */
export interface StreamBatchOutput {
  /** Webhook events queued for delivery (generateEvents). */
  queued: number;
  /** Entries written to the apps' webhooks journals (shared/webhooks-journal/journal-events.ts). */
  journalEntries: number;
  /**
   * The batch's list memberships that began or ended (list-membership-changes.ts), in stream order.
   * No v3 subscription type is about list memberships, so none of them is delivered as a webhook;
   * the journal's LIST_MEMBERSHIP subscriptions take them.
   */
  listMembershipChanges: ListMembershipChange[];
}

/**
 * One stream batch, deployed (functions/webhooks/generate-events.ts) and locally
 * (local/local-webhooks.ts) alike: the webhooks and the webhooks journal read the same committed
 * changes, after one shared read of what a reset voided and which removals were for good. The
 * journal's entries are written before the webhooks are queued: a throw in either hands the batch
 * out again, and both are idempotent for a repeated stream record.
 */
export async function processStreamBatch(
  records: readonly ChangeRecord[],
  queue: DeliveryQueue,
  options: GenerateOptions = {},
): Promise<StreamBatchOutput> {
  const accepts = (hubId: number) => options.acceptsHub?.(hubId) ?? true;
  const prepared = await prepareStreamBatch(records, accepts);
  const entries = await writeJournalEntries(
    prepared.kept.records,
    (record) => prepared.removedForGood.has(record),
    accepts,
  );
  const queued = await generateEvents(records, queue, options, prepared);
  const listMembershipChanges = listMembershipChangesOf(records).filter((change) => accepts(change.hubId));
  return { queued, journalEntries: entries.length, listMembershipChanges };
}
