import { batchGetAll, batchPutAll, getItem, queryPage, skBetween, type Item } from './core';
import {
  journalEntryKey,
  journalEntryPartition,
  journalInstallEntryKey,
  journalInstallEntryPartition,
  type Key,
} from './keys';

/** One entry of an app's webhooks journal: one event, as the app's subscriptions matched it. */
export interface JournalEntry {
  appId: number;
  portalId: number;
  /** The sort key: commit order (shared/webhooks-journal/journal-offsets.ts). */
  offset: string;
  /** Epoch ms after which the entry is gone (reads treat it so; DynamoDB's TTL deletes it later). */
  expiresAtMs: number;
  /** The entry's file, as served behind its URL (shared/webhooks-journal/journal-files.ts). */
  file: string;
}

/** Whose entries a read is about: an app's journal, or one install's entries of it. */
export interface JournalScope {
  appId: number;
  portalId?: number;
}

const partitionOf = (scope: JournalScope): string =>
  scope.portalId === undefined
    ? journalEntryPartition(scope.appId)
    : journalInstallEntryPartition(scope.appId, scope.portalId);

const keyOf = (scope: JournalScope, offset: string): Key =>
  scope.portalId === undefined
    ? journalEntryKey(scope.appId, offset)
    : journalInstallEntryKey(scope.appId, scope.portalId, offset);

function entryOf(item: Item): JournalEntry | undefined {
  const { appId, portalId, sk, expiresAtMs, file } = item;
  if (typeof appId !== 'number' || typeof portalId !== 'number' || typeof sk !== 'string') return undefined;
  if (typeof expiresAtMs !== 'number' || typeof file !== 'string') return undefined;
  return { appId, portalId, offset: sk, expiresAtMs, file };
}

const entriesOf = (items: readonly Item[]): JournalEntry[] =>
  items.flatMap((item) => {
    const entry = entryOf(item);
    return entry ? [entry] : [];
  });

/**
 * Writes each entry in its app's partition and its install's (BatchWriteItem, 25 items a call). The
 * keys and contents follow from the stream records, so writing the same entries again changes nothing.
 */
export async function putJournalEntries(entries: readonly JournalEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const items = entries.flatMap((entry) => {
    const attributes = {
      appId: entry.appId,
      portalId: entry.portalId,
      expiresAtMs: entry.expiresAtMs,
      ttl: Math.ceil(entry.expiresAtMs / 1000),
      file: entry.file,
    };
    return [
      { ...journalEntryKey(entry.appId, entry.offset), ...attributes },
      { ...journalInstallEntryKey(entry.appId, entry.portalId, entry.offset), ...attributes },
    ];
  });
  await batchPutAll(items);
}

/** Up to `limit` entries from `fromOffset` on (inclusive), in offset order: one Query. */
export async function journalEntriesFrom(
  scope: JournalScope,
  fromOffset: string,
  limit: number,
): Promise<JournalEntry[]> {
  const page = await queryPage({
    pk: partitionOf(scope),
    skCondition: skBetween({ low: fromOffset }),
    pageSize: limit,
  });
  return entriesOf(page.items);
}

/** Up to `limit` of the newest entries at or after `fromOffset`, newest first: one Query. */
export async function newestJournalEntries(
  scope: JournalScope,
  fromOffset: string,
  limit: number,
): Promise<JournalEntry[]> {
  const page = await queryPage({
    pk: partitionOf(scope),
    skCondition: skBetween({ low: fromOffset }),
    pageSize: limit,
    newestFirst: true,
  });
  return entriesOf(page.items);
}

/** The entries of these offsets that exist (BatchGetItem, 100 keys a call), in no particular order. */
export async function findJournalEntries(scope: JournalScope, offsets: readonly string[]): Promise<JournalEntry[]> {
  if (offsets.length === 0) return [];
  return entriesOf(await batchGetAll(offsets.map((offset) => keyOf(scope, offset))));
}

/** One entry by its offset (GetItem). */
export async function findJournalEntry(scope: JournalScope, offset: string): Promise<JournalEntry | undefined> {
  const item = await getItem(keyOf(scope, offset));
  return item ? entryOf(item) : undefined;
}
