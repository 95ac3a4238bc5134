import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mapConcurrently } from '../base/map-concurrently';
import { db, tableName } from './client';
import {
  batchDeleteAll,
  batchGetAll,
  conditionalWrite,
  getItem,
  queryPage,
  type Item,
  type PartitionQuery,
} from './core';
import { findDeveloper, findDeveloperApiKey } from './developers';
import { findInstalledApps } from './webhooks';
import {
  accountKey,
  appPartition,
  faultsPartition,
  hubCounterKey,
  hubPartition,
  installPrefix,
  orderIndexPartition,
  ownerOfUserPrefix,
  ownerPrefix,
  recordCountPrefix,
  searchPartition,
  searchShards,
  searchTagOf,
  timelineEventListedBy,
  timelineEventListingPrefix,
  webhookDeliveryPrefix,
  webhookPendingPartition,
  webhookPendingPrefix,
  type Key,
} from './keys';

/**
 * The purge of a test account (the sandbox controls' reset and delete): every item of the account's
 * data, found by keys alone, page by page (Query with a keys-only projection), and deleted with
 * BatchWriteItem (core.batchDeleteAll: 25 keys a call, unprocessed ones retried under the one
 * policy). An account's data can outgrow one Lambda call, so a purge stops when the caller's time is
 * up and answers 'partial'; calling it again goes on. Each call starts over from the first step:
 * what a step already emptied costs one Query a partition to find empty. The steps run in an order
 * that keeps, until its own step, whatever a later call needs to find the rest: the derived
 * partitions (search projection, ordered index), the timeline events and the delivery log are found
 * through items of the hub partition (the custom object schemas, the event listing, the installs),
 * so they go first and the hub partition after them; in a delete, the account item goes last.
 *
 * A purge removes contact items, which the webhook generator would read as GDPR deletions
 * (shared/webhooks/generate-events.ts): each call first marks the account with the window of its
 * purge (dataResetAtMs, then dataResetDoneAtMs when a reset is done), and findPurgedRemovals tells
 * the generator which removals fall in it.
 */

export type PurgeMode = 'reset' | 'delete';

/** Keys per Query page of a sweep: ten BatchWriteItem calls, then the caller's time is asked again. */
const sweepPageItems = 250;
/** Pages one sweep reads in one call at most (2.5 million keys); past them the call answers 'partial' and the next goes on. */
const maxSweepPages = 10_000;
/** Keys per page and pages at most of the small listings a purge reads first (schemas, record counters, installs). */
const listingPageItems = 1000;
const maxListingPages = 100;
/** Derived partitions swept side by side: a few hundred mostly empty ones per call (types x shards x 3). */
const sweepsInFlight = 8;

/**
 * A reset starting within this long after the previous one ended keeps that one's window open from
 * its start: the previous reset's removals may still be on their way through the stream (retried
 * batches included), and a window moved past them would let them through as GDPR deletions.
 */
const purgeWindowJoinMs = 5 * 60_000;
/**
 * Added to the window's end: the stream stamps a removal with DynamoDB's clock (rounded down to the
 * second), the purge its end with the function's.
 */
const purgeWindowSlackMs = 1000;

/** Whether the caller's time is up; true from the first time it says so, so side-by-side sweeps all stop. */
type Budget = () => boolean;

function budgetOf(isTimeUp: () => boolean): Budget {
  let spent = false;
  return () => {
    if (!spent && isTimeUp()) spent = true;
    return spent;
  };
}

const keyOf = (item: Item): Key => ({ pk: String(item.pk), sk: String(item.sk) });

/**
 * Deletes what `query` finds (its keys, page by page, as `remove` decides: by default all of them)
 * until a page comes back without a next key (true) or the budget is spent or the page bound
 * reached (false). Deleting what was read does not disturb the paging: a Query may start after a
 * key that no longer exists.
 */
async function sweep(
  query: PartitionQuery,
  budget: Budget,
  remove: (keys: Key[]) => Promise<void> = batchDeleteAll,
): Promise<boolean> {
  let startKey: Item | undefined;
  for (let page = 0; page < maxSweepPages; page += 1) {
    if (budget()) return false;
    const { items, nextKey } = await queryPage({ ...query, projection: 'pk, sk', pageSize: sweepPageItems }, startKey);
    await remove(items.map(keyOf));
    if (!nextKey) return true;
    startKey = nextKey;
  }
  return false;
}

/**
 * The items `query` finds (keys only unless it names a projection), every page: for the small
 * listings only (the record counters), which a bound far above their caps holds.
 */
async function listingOf(query: PartitionQuery): Promise<Item[]> {
  const items: Item[] = [];
  let startKey: Item | undefined;
  for (let page = 0; page < maxListingPages; page += 1) {
    const found = await queryPage({ projection: 'pk, sk', ...query, pageSize: listingPageItems }, startKey);
    items.push(...found.items);
    if (!found.nextKey) return items;
    startKey = found.nextKey;
  }
  throw new Error(`more than ${maxListingPages * listingPageItems} items under ${query.pk} ${query.skPrefix ?? ''}`);
}

/**
 * The types whose derived partitions hold items: those with active records. A type's active records
 * are counted in the transactions that write their projection and index items (shared/db/order-index.ts;
 * a test account is indexed from its creation), so a type whose counters sum to 0, or that has none,
 * has nothing there, and a purge of an account that used two types reads 2 x 48 partitions, not every
 * type's. A counter alone says nothing (a transaction moves one counter by the sum of its records'
 * changes, whatever their shards): the sum does. Read before the hub partition's sweep removes them.
 */
async function typeIdsOf(hubId: number): Promise<string[]> {
  const sums = new Map<string, number>();
  const counters = await listingOf({
    pk: hubPartition(hubId),
    skPrefix: recordCountPrefix,
    projection: 'sk, #count',
    names: { '#count': 'count' },
  });
  for (const item of counters) {
    // RECORD_COUNT#<type id>#<shard>: the type id is what lies between the prefix and the last '#'.
    const sk = String(item.sk);
    const typeId = sk.slice(recordCountPrefix.length, sk.lastIndexOf('#'));
    sums.set(typeId, (sums.get(typeId) ?? 0) + (typeof item.count === 'number' ? item.count : 0));
  }
  return [...sums].filter(([typeId, sum]) => typeId.length > 0 && sum !== 0).map(([typeId]) => typeId);
}

/** The search projection and ordered index partitions of every type, every shard, side by side. */
async function purgeDerivedPartitions(hubId: number, budget: Budget): Promise<boolean> {
  const partitions = (await typeIdsOf(hubId)).flatMap((typeId) =>
    Array.from({ length: searchShards }, (_, shard) => [
      searchPartition({ searchTag: searchTagOf(typeId) }, hubId, shard),
      orderIndexPartition({ id: typeId }, hubId, 'c', shard),
      orderIndexPartition({ id: typeId }, hubId, 'm', shard),
    ]).flat(),
  );
  const swept = await mapConcurrently(partitions, sweepsInFlight, (pk) => sweep({ pk }, budget));
  return swept.every(Boolean);
}

/**
 * The account's timeline events, through their listing items (keys.ts timelineEventListingKey):
 * each page's events first, then the listing items that name them, so an interrupted page leaves
 * its listing items for the next call.
 */
async function purgeTimelineEvents(hubId: number, budget: Budget): Promise<boolean> {
  return sweep({ pk: hubPartition(hubId), skPrefix: timelineEventListingPrefix }, budget, async (listings) => {
    const events = listings.map((listing) => timelineEventListedBy(hubId, listing.sk));
    await batchDeleteAll(events.filter((event): event is Key => event !== undefined));
    await batchDeleteAll(listings);
  });
}

/**
 * The apps whose delivery log may hold attempts for the account: those installed in it, and, for a
 * test account, its developer's apps, the only ones the sandbox installs and the ones whose installs
 * a delete ends before it purges. Read before the hub partition's sweep and the account's removal.
 */
async function appIdsOf(hubId: number, account: Item | undefined): Promise<number[]> {
  const installed = (await findInstalledApps(hubId)).map((install) => install.appId);
  const developer = typeof account?.developerId === 'number' ? await findDeveloper(account.developerId) : undefined;
  const key = developer ? await findDeveloperApiKey(developer.apiKeyHash) : undefined;
  return [...new Set([...installed, ...(key?.appIds ?? [])])].filter((appId) => Number.isSafeInteger(appId));
}

/** The delivery attempts of the account in those apps' logs (the other accounts' attempts stay). */
async function purgeDeliveryLog(hubId: number, appIds: readonly number[], budget: Budget): Promise<boolean> {
  for (const appId of appIds) {
    const swept = await sweep(
      {
        pk: appPartition(appId),
        skPrefix: webhookDeliveryPrefix,
        filter: 'portalId = :portalId',
        values: { ':portalId': hubId },
      },
      budget,
    );
    if (!swept) return false;
  }
  return true;
}

/**
 * What a reset leaves in the hub partition: the account, its installs and its owners (who the
 * account is and who may use it), and the one id sequence whose ids must never be handed out twice,
 * `associationTypeId` (association-labels.ts allocateAssociationTypeIds): clients store and send a
 * label's type id, and one reused for a new label would silently mean that label to them. The other
 * counters go with what they count: the custom property counts (`<type>Properties`,
 * property-definitions.ts) and the schema count (`objectSchemas`, object-schemas.ts) hold caps
 * over the definitions and schemas the reset removes, as the record counters (RECORD_COUNT#) and
 * pipeline counts (PIPELINE_COUNT#) count records and pipelines that are gone; custom object type
 * ids come from a global sequence (COUNTER objectSchemaId), outside the account.
 */
function keptByReset(hubId: number): (sk: string) => boolean {
  const kept = new Set([accountKey(hubId).sk, hubCounterKey(hubId, 'associationTypeId').sk]);
  const keptPrefixes = [installPrefix, ownerPrefix, ownerOfUserPrefix];
  return (sk) => kept.has(sk) || keptPrefixes.some((prefix) => sk.startsWith(prefix));
}

/** The hub partition, but what `keep` spares. */
async function purgeHubPartition(hubId: number, keep: (sk: string) => boolean, budget: Budget): Promise<boolean> {
  return sweep({ pk: hubPartition(hubId) }, budget, (keys) => batchDeleteAll(keys.filter((key) => !keep(key.sk))));
}

/**
 * Opens (or keeps open) the purge window on the account item, before any removal, and answers the
 * item as it was read (undefined: no account, nothing to mark). The window is dataResetAtMs, its
 * start, to dataResetDoneAtMs, its end, which a reset writes once it is done: a window without an
 * end would silence every later GDPR delete of the account. A call of an unfinished purge (no end
 * yet) keeps its start, so the removals of its earlier calls stay inside. Epoch ms of the real
 * clock, not the service's (shared/base/clock.ts, which tests move): they are compared with the
 * stream's times.
 */
async function openPurgeWindow(hubId: number): Promise<Item | undefined> {
  const account = await getItem(accountKey(hubId));
  if (!account) return undefined;
  const now = Date.now();
  const start = account.dataResetAtMs;
  const done = account.dataResetDoneAtMs;
  const isOpen = typeof start === 'number' && (typeof done !== 'number' || now - done <= purgeWindowJoinMs);
  await conditionalWrite(
    new UpdateCommand({
      TableName: tableName,
      Key: accountKey(hubId),
      UpdateExpression: 'SET dataResetAtMs = :start REMOVE dataResetDoneAtMs',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':start': isOpen ? start : now },
    }),
  );
  return account;
}

/**
 * Deletes the account's items of that mode, stopping (answering 'partial') once isTimeUp() says so;
 * calling it again continues. `reset` removes the account's data (CRM records of every type with
 * their search projection and ordered index, associations and labels, custom properties and groups,
 * pipelines, custom object schemas, timeline events, the account's webhook delivery log and pending
 * batches) and keeps the account, its installs, owners and id sequences (keptByReset); `delete`
 * removes every item of the account, its injected faults too, the account item last. Install
 * states (keys.ts installStateKey) are the caller's: it ends the installs before a delete.
 */
export async function purgeAccount(
  hubId: number,
  mode: PurgeMode,
  isTimeUp: () => boolean,
): Promise<'done' | 'partial'> {
  const budget = budgetOf(isTimeUp);
  const account = await openPurgeWindow(hubId);
  const steps: (() => Promise<boolean>)[] = [
    () => purgeDerivedPartitions(hubId, budget),
    () => purgeTimelineEvents(hubId, budget),
    async () => purgeDeliveryLog(hubId, await appIdsOf(hubId, account), budget),
    // A reset takes the queued batches only: the partition's flush item belongs to a flush running now.
    () =>
      sweep(
        { pk: webhookPendingPartition(hubId), ...(mode === 'reset' ? { skPrefix: webhookPendingPrefix } : {}) },
        budget,
      ),
    () => purgeHubPartition(hubId, mode === 'reset' ? keptByReset(hubId) : (sk) => sk === accountKey(hubId).sk, budget),
    ...(mode === 'delete' ? [() => sweep({ pk: faultsPartition(hubId) }, budget)] : []),
  ];
  for (const step of steps) if (!(await step())) return 'partial';
  if (mode === 'delete') {
    await db.send(new DeleteCommand({ TableName: tableName, Key: accountKey(hubId) }));
  } else if (account) {
    await conditionalWrite(
      new UpdateCommand({
        TableName: tableName,
        Key: accountKey(hubId),
        UpdateExpression: 'SET dataResetDoneAtMs = :now',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':now': Date.now() },
      }),
    );
  }
  return 'done';
}

/** A record item's removal the table's stream saw: in which account, and when (the stream's epoch ms, whole seconds). */
export interface SeenRemoval {
  hubId: number;
  removedAtMs: number;
}

/**
 * Which of these removals (their indexes) a purge made, so they are no GDPR deletions: those in an
 * account that no longer exists (a delete removes its account item last), and those within the
 * account's purge window, from its start (rounded down to the second, as the stream's times are) to
 * its end, when the reset is done, plus purgeWindowSlackMs. The account items of the removals'
 * accounts in one strongly consistent BatchGetItem (the window is written before any removal).
 */
export async function findPurgedRemovals(removals: readonly SeenRemoval[]): Promise<Set<number>> {
  const purged = new Set<number>();
  if (removals.length === 0) return purged;
  const hubIds = [...new Set(removals.map((removal) => removal.hubId))];
  const accounts = new Map(
    (await batchGetAll(hubIds.map(accountKey), { attributes: ['dataResetAtMs', 'dataResetDoneAtMs'] })).map((item) => [
      String(item.pk),
      item,
    ]),
  );
  removals.forEach(({ hubId, removedAtMs }, index) => {
    const account = accounts.get(accountKey(hubId).pk);
    const start = account?.dataResetAtMs;
    const done = account?.dataResetDoneAtMs;
    const inWindow =
      typeof start === 'number' &&
      removedAtMs >= Math.floor(start / 1000) * 1000 &&
      (typeof done !== 'number' || removedAtMs <= done + purgeWindowSlackMs);
    if (!account || inWindow) purged.add(index);
  });
  return purged;
}
