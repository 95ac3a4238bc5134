import type { DeliveryQueue } from './delivery-queue';
import { generateEvents, type GenerateOptions } from './generate-events';
import { listMembershipChangesOf, type ListMembershipChange } from './list-membership-changes';
import type { ChangeRecord } from './record-changes';

/** What the webhook event function makes of one stream batch. */
export interface StreamBatchOutput {
  /** Webhook events queued for delivery (generateEvents). */
  queued: number;
  /**
   * The batch's list memberships that began or ended (list-membership-changes.ts), in stream order:
   * for the webhooks journal, which takes them from here. No v3 subscription type is about list
   * memberships, so none of them is delivered as a webhook.
   */
  listMembershipChanges: ListMembershipChange[];
}

/** One stream batch, deployed (functions/webhooks/generate-events.ts) and locally (local/local-webhooks.ts) alike. */
export async function processStreamBatch(
  records: readonly ChangeRecord[],
  queue: DeliveryQueue,
  options: GenerateOptions = {},
): Promise<StreamBatchOutput> {
  const queued = await generateEvents(records, queue, options);
  const listMembershipChanges = listMembershipChangesOf(records).filter(
    (change) => options.acceptsHub?.(change.hubId) ?? true,
  );
  return { queued, listMembershipChanges };
}
