import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { nowMs } from '../base/clock';
import { mapConcurrently } from '../base/map-concurrently';
import { sleep } from '../base/retry';
import { db, tableName } from './client';
import {
  batchDeleteAll,
  batchPutAll,
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
  associationLimitPartition,
  faultsPartition,
  hubCounterKey,
  hubPartition,
  installPrefix,
  journalEntryPartition,
  journalInstallEntryPartition,
  listMembersPartition,
  listPrefix,
  orderIndexPartition,
  ownerOfUserPrefix,
  ownerPrefix,
  recordCountPrefix,
  searchPartition,
  searchShards,
  timelineEventListedBy,
  timelineEventListingPrefix,
  webhookDeliveryPrefix,
  webhookPendingPartition,
  webhookPendingPrefix,
  writeHoldKey,
  writeHoldPrefix,
  writeHoldShards,
  type Key,
  type KeyedType,
} from './keys';
import { writeHoldItems } from './write-guard';

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
 * Before anything is removed, the purge puts the account's write hold (holdAccountWrites,
 * write-guard.ts): from then on no write of the account's callers commits, so what the purge finds
 * is all there is, and a record's items go together. A reset then records on the account item when
 * its data starts (dataResetFromMs, the service clock's now: later than every write that committed
 * before the hold, earlier than every write after the reset), and takes the hold away when it is
 * done; a delete's hold stays (it expires an hour later), so a write that began before the delete
 * and commits after it finds the hold, not an empty account.
 *
 * A purge removes contact items, which the webhook generator would read as GDPR deletions: it
 * drops the changes of records written before the account's dataResetFromMs and every change of an
 * account that no longer exists (shared/webhooks/reset-filter.ts), so a reset's and a delete's
 * removals fire nothing, nor do the writes made before a reset.
 */

export type PurgeMode = 'reset' | 'delete';

/** Keys per Query page of a sweep. */
const sweepPageItems = 250;
/** Keys removed between two askings of the caller's time: one BatchWriteItem. */
const removalChunkKeys = 25;
/** Pages one sweep reads in one call at most (2.5 million keys); past them the call answers 'partial' and the next goes on. */
const maxSweepPages = 10_000;
/** Keys per page and pages at most of the small listings a purge reads first (schemas, record counters, installs). */
const listingPageItems = 1000;
const maxListingPages = 100;
/** Derived partitions swept side by side: a few hundred mostly empty ones per call (types x shards x 3). */
const sweepsInFlight = 8;

/** How long a delete's write hold outlives the delete (DynamoDB's TTL removes it): longer than any function runs. */
const deleteHoldSeconds = 3600;

/** Puts of the hold that met a transaction holding the same item at that moment are sent again, this many times in all. */
const holdPutAttempts = 5;

/**
 * Puts the account's write hold (every shard; write-guard.ts), a reset's or a delete's. Putting it
 * again is harmless: an unfinished purge's next call does. Returns once every shard is written.
 */
export async function holdAccountWrites(hubId: number, mode: PurgeMode): Promise<void> {
  const ttl = mode === 'delete' ? Math.floor(Date.now() / 1000) + deleteHoldSeconds : undefined;
  const items = writeHoldItems(hubId, mode, new Date().toISOString(), ttl);
  for (let attempt = 1; ; attempt += 1) {
    try {
      await batchPutAll(items);
      return;
    } catch (error) {
      if ((error as { name?: string }).name !== 'TransactionConflictException' || attempt >= holdPutAttempts)
        throw error;
      await sleep(20 * attempt);
    }
  }
}

/** Takes a reset's write hold away: the account's callers write again. */
async function releaseAccountWrites(hubId: number): Promise<void> {
  await batchDeleteAll(Array.from({ length: writeHoldShards }, (_, shard) => writeHoldKey(hubId, shard)));
}

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
    // The page's keys a removal call (25: one BatchWriteItem) at a time, the budget asked before each:
    // keys left when it is spent are found again by the next call.
    const keys = items.map(keyOf);
    for (let start = 0; start < keys.length; start += removalChunkKeys) {
      if (start > 0 && budget()) return false;
      await remove(keys.slice(start, start + removalChunkKeys));
    }
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

/** What the purge needs of a type it knows by id (a record count names it): its search tag (an object type registry entry). */
export type PurgedTypeOf = (typeId: string) => Pick<KeyedType, 'searchTag'> | undefined;

/** The search projection and ordered index partitions of every type, every shard, side by side. */
async function purgeDerivedPartitions(hubId: number, typeOf: PurgedTypeOf, budget: Budget): Promise<boolean> {
  const partitions = (await typeIdsOf(hubId)).flatMap((typeId) =>
    Array.from({ length: searchShards }, (_, shard) => [
      searchPartition(typeOf(typeId) ?? { searchTag: `${typeId}#` }, hubId, shard),
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
 * The memberships of the account's lists (deleted ones' too), each list's partition found through
 * the list's item in the hub partition (keys.ts listKey), which the hub partition's sweep removes after.
 */
async function purgeListMemberships(hubId: number, budget: Budget): Promise<boolean> {
  const lists = await listingOf({ pk: hubPartition(hubId), skPrefix: listPrefix });
  const partitions = lists.map((item) => listMembersPartition(hubId, String(item.sk).slice(listPrefix.length)));
  const swept = await mapConcurrently(partitions, sweepsInFlight, (pk) => sweep({ pk }, budget));
  return swept.every(Boolean);
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

/**
 * The account's entries in those apps' webhooks journals: each entry is kept twice
 * (shared/db/webhooks-journal-entries.ts), in the app's journal and in the install's; the install's
 * partition lists them, and each page's entries leave the app's journal before the install's, so a
 * call stopped between the two finds the rest again.
 */
async function purgeJournalEntries(hubId: number, appIds: readonly number[], budget: Budget): Promise<boolean> {
  for (const appId of appIds) {
    const swept = await sweep({ pk: journalInstallEntryPartition(appId, hubId) }, budget, async (keys) => {
      await batchDeleteAll(keys.map((key) => ({ pk: journalEntryPartition(appId), sk: key.sk })));
      await batchDeleteAll(keys);
    });
    if (!swept) return false;
  }
  return true;
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
 * The account item as it was read, and, for a reset, its start marked on it (dataResetFromMs: the
 * service clock's now, shared/base/clock.ts, the clock records' updatedAt is stamped with). Called
 * with the write hold in place: every write that committed before it is older, every write after
 * the reset newer. Each call of an unfinished reset moves it on, which keeps both true. Undefined
 * when there is no account.
 */
async function markResetStart(hubId: number, mode: PurgeMode): Promise<Item | undefined> {
  const account = await getItem(accountKey(hubId));
  if (!account || mode !== 'reset') return account;
  await conditionalWrite(
    new UpdateCommand({
      TableName: tableName,
      Key: accountKey(hubId),
      UpdateExpression: 'SET dataResetFromMs = :from',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':from': nowMs() },
    }),
  );
  return account;
}

/**
 * Deletes the account's items of that mode, stopping (answering 'partial') once isTimeUp() says so;
 * calling it again continues. `reset` removes the account's data (CRM records of every type with
 * their search projection and ordered index, associations and labels, custom properties and groups,
 * pipelines, custom object schemas, timeline events, the account's webhook delivery log and pending
 * batches, the association limit markers) and keeps the account, its installs, owners and id
 * sequences (keptByReset); `delete` removes every item of the account, its injected faults too, the
 * account item last. Install
 * states (keys.ts installStateKey) are the caller's: it ends the installs before a delete. The
 * write hold comes first: while a reset is unfinished (a 'partial' answer), the account's callers
 * get 503 until a call finishes it. `typeOf` finds the search tag of a type the account's record
 * counts name (objectTypeById).
 */
export async function purgeAccount(
  hubId: number,
  mode: PurgeMode,
  isTimeUp: () => boolean,
  typeOf: PurgedTypeOf,
): Promise<'done' | 'partial'> {
  const budget = budgetOf(isTimeUp);
  await holdAccountWrites(hubId, mode);
  const account = await markResetStart(hubId, mode);
  const steps: (() => Promise<boolean>)[] = [
    () => purgeDerivedPartitions(hubId, typeOf, budget),
    () => purgeTimelineEvents(hubId, budget),
    () => purgeListMemberships(hubId, budget),
    async () => {
      const appIds = await appIdsOf(hubId, account);
      return (await purgeDeliveryLog(hubId, appIds, budget)) && purgeJournalEntries(hubId, appIds, budget);
    },
    // A reset takes the queued batches only: the partition's flush item belongs to a flush running now.
    () =>
      sweep(
        { pk: webhookPendingPartition(hubId), ...(mode === 'reset' ? { skPrefix: webhookPendingPrefix } : {}) },
        budget,
      ),
    // The association limit markers and totals: what the stream's tracker writes for a record change it
    // reads after this step, the removal of the record's item (later in the stream) takes away again.
    () => sweep({ pk: associationLimitPartition(hubId) }, budget),
    () => purgeHubPartition(hubId, mode === 'reset' ? keptByReset(hubId) : (sk) => sk === accountKey(hubId).sk, budget),
    // A delete's write hold stays in the faults partition after it (holdAccountWrites).
    ...(mode === 'delete'
      ? [
          () =>
            sweep({ pk: faultsPartition(hubId) }, budget, (keys) =>
              batchDeleteAll(keys.filter((key) => !key.sk.startsWith(writeHoldPrefix))),
            ),
        ]
      : []),
  ];
  for (const step of steps) if (!(await step())) return 'partial';
  if (mode === 'delete') await db.send(new DeleteCommand({ TableName: tableName, Key: accountKey(hubId) }));
  else await releaseAccountWrites(hubId);
  return 'done';
}
