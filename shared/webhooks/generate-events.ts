import { findRemovedForGood } from '../db/records';
import { findInstalledApps, findWebhookConfig, type InstalledApp, type WebhookConfig } from '../db/webhooks';
import { recordChangesOf, removalOf, type ChangeRecord, type RemovedRecord } from './record-changes';
import { splitIntoBatches, type DeliveryQueue } from './delivery-queue';
import { queueNewBatches } from './pending-batches';
import { withoutResetChanges } from './reset-filter';
import { objectTypeById } from '../objects/object-types';
import { eventsForApp, type WebhookEvent } from './webhook-events';

export interface GenerateOptions {
  /** Only these accounts' changes (tests that share one table with other test files). */
  acceptsHub?: (hubId: number) => boolean;
}

/**
 * The stream records whose removal of a record item took the record with it (see removalOf): one
 * read (findRemovedForGood), only for a batch with removals.
 */
async function removedForGoodOf(
  records: readonly ChangeRecord[],
  accepts: (hubId: number) => boolean,
): Promise<Set<ChangeRecord>> {
  const removals: { record: ChangeRecord; removed: RemovedRecord }[] = [];
  for (const record of records) {
    const removed = removalOf(record);
    if (removed && accepts(removed.hubId)) removals.push({ record, removed });
  }
  if (removals.length === 0) return new Set();
  const gone = await findRemovedForGood(removals.map(({ removed }) => removed));
  return new Set(removals.filter((_, index) => gone.has(index)).map(({ record }) => record));
}

/** What every consumer of a stream batch reads first: the changes a reset leaves, and the removals for good. */
export interface PreparedStreamBatch {
  kept: Awaited<ReturnType<typeof withoutResetChanges>>;
  removedForGood: ReadonlySet<ChangeRecord>;
}

/** The reset filter's read and the removals' read of a batch, side by side (see generateEvents). */
export async function prepareStreamBatch(
  records: readonly ChangeRecord[],
  accepts: (hubId: number) => boolean,
): Promise<PreparedStreamBatch> {
  const [kept, removedForGood] = await Promise.all([
    withoutResetChanges(records, accepts),
    removedForGoodOf(records, accepts),
  ]);
  return { kept, removedForGood };
}

/**
 * Turns committed changes (stream records, in order) of records of every stored type into events
 * for every app installed in the record's account whose install there holds a read scope of the
 * object (HubSpot delivers an object's events only to apps that can read it) and that has a target
 * and an active matching subscription, and queues them in batches per app and account. A removed
 * contact item is a removal for good (a GDPR delete) only when the record left nothing behind
 * (findRemovedForGood). Where the sandbox controls exist, the changes a test account's reset or
 * delete makes void (written before the reset, or removed by it) are dropped first
 * (reset-filter.ts: one BatchGetItem per stream batch, side by side with the removals' read).
 * Reads the installs (with their scopes: one Query per account in the batch, side by side) and the
 * webhook configuration (one Query per app) fresh for each call, so an ended install, a paused
 * subscription or a deleted target stops events from the next stream batch on. Returns the number
 * of events queued; throws (and the stream hands the records out again) when the table or the
 * queue fails.
 */
export async function generateEvents(
  records: readonly ChangeRecord[],
  queue: DeliveryQueue,
  options: GenerateOptions = {},
  prepared?: PreparedStreamBatch,
): Promise<number> {
  const accepts = (hubId: number) => options.acceptsHub?.(hubId) ?? true;
  const { kept, removedForGood } = prepared ?? (await prepareStreamBatch(records, accepts));
  const changes = kept.records
    .flatMap((record) =>
      recordChangesOf(record, () => removedForGood.has(record)).map((change) => ({
        change,
        recordId: record.recordId,
      })),
    )
    .filter(({ change }) => accepts(change.hubId));
  if (changes.length === 0) return 0;
  const appsByHub = new Map<number, Promise<InstalledApp[]>>();
  const configs = new Map<number, Promise<WebhookConfig>>();
  const installedApps = (hubId: number) => {
    if (!appsByHub.has(hubId)) appsByHub.set(hubId, findInstalledApps(hubId));
    return appsByHub.get(hubId) as Promise<InstalledApp[]>;
  };
  const configOf = (appId: number) => {
    if (!configs.has(appId)) configs.set(appId, findWebhookConfig(appId));
    return configs.get(appId) as Promise<WebhookConfig>;
  };
  // Every account's installs are asked for at once; the loop below then waits for each only once.
  for (const { change } of changes) void installedApps(change.hubId).catch(() => undefined);
  const grouped = new Map<string, { appId: number; portalId: number; events: WebhookEvent[] }>();
  for (const { change, recordId } of changes) {
    // The record type's read scopes (the same as its legacy event object's, for a type that has one).
    const readScopes: readonly string[] = objectTypeById(change.objectTypeId)?.scopes.read ?? [];
    for (const { appId, scopes } of await installedApps(change.hubId)) {
      // Checked before the app's configuration is read: an install that cannot read the object costs nothing more.
      if (!readScopes.some((scope) => scopes.includes(scope))) continue;
      const events = eventsForApp(change, recordId, appId, await configOf(appId));
      if (events.length === 0) continue;
      const key = `${appId}:${change.hubId}`;
      const group = grouped.get(key) ?? { appId, portalId: change.hubId, events: [] };
      group.events.push(...events);
      grouped.set(key, group);
    }
  }
  const batches = [...grouped.values()].flatMap((group) => splitIntoBatches(group.appId, group.portalId, group.events));
  // A test account's batches are also recorded as pending, for the sandbox controls' flush.
  await queueNewBatches(queue, batches, kept.resetStarts);
  return batches.reduce((sum, batch) => sum + batch.events.length, 0);
}
