import { batchErrorOf, envelope, type BatchResponse } from '../base/batch-results';
import { nowMs } from '../base/clock';
import { NotFoundError, ValidationError } from '../base/errors';
import {
  findJournalEntries,
  findJournalEntry,
  journalEntriesFrom,
  newestJournalEntries,
  type JournalEntry,
  type JournalScope,
} from '../db/webhooks-journal-entries';
import { journalRetentionMs } from './journal-events';
import { journalFileUrl, requireJournalFileSignature } from './journal-files';
import { isJournalOffset, lowestOffsetAt } from './journal-offsets';

/** HubSpot's JournalFetchResponse: the entry's offset, and its file's URL with the URL's expiry. */
export interface JournalFetchView {
  currentOffset: string;
  expiresAt: string;
  url: string;
}

/** Who reads (the app of the token) and where links point. */
export interface JournalReader {
  appId: number;
  baseUrl: string;
}

/** Entries per batch read (HubSpot's 2027-03-beta documents 1 to 100; the 2026-03 spec only the minimum). */
export const journalBatchMax = 100;

const isLive = (entry: JournalEntry, now: number) => entry.expiresAtMs > now;

/** The first offset a live entry can have: entries written before the retention are gone. */
const retentionStart = (now: number) => lowestOffsetAt(now - journalRetentionMs + 1);

/**
 * The journal a read is about: the app's, or with `installPortalId` only that install's entries
 * (journal and journal-local alike). A value that is not an account id is a 400 naming it.
 */
export function journalScopeOf(reader: JournalReader, installPortalId: string | undefined): JournalScope {
  if (installPortalId === undefined) return { appId: reader.appId };
  if (!/^[0-9]{1,15}$/.test(installPortalId) || Number(installPortalId) < 1)
    throw new ValidationError('installPortalId must be the id of an account the app is installed in.', {
      context: { installPortalId: [installPortalId] },
    });
  return { appId: reader.appId, portalId: Number(installPortalId) };
}

/** A count of a batch path: 1 to journalBatchMax, else 400 naming it. */
export function journalCountOf(raw: string): number {
  const count = /^[0-9]{1,4}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(count >= 1 && count <= journalBatchMax))
    throw new ValidationError(`count must be an integer from 1 to ${journalBatchMax}.`, { context: { count: [raw] } });
  return count;
}

const offsetNotFound = (offset: string) =>
  new NotFoundError(
    `No journal entry has the offset ${offset}: it is unknown or older than the journal's three days.`,
    {
      context: { offset: [offset] },
    },
  );

async function viewOf(reader: JournalReader, entry: JournalEntry): Promise<JournalFetchView> {
  const { url, expiresAt } = await journalFileUrl(reader.baseUrl, reader.appId, entry.offset);
  return { currentOffset: entry.offset, expiresAt, url };
}

/** The earliest live entry; 404 when the journal holds none. */
export async function earliestJournalEntry(reader: JournalReader, scope: JournalScope): Promise<JournalFetchView> {
  const now = nowMs();
  const [entry] = (await journalEntriesFrom(scope, retentionStart(now), 1)).filter((found) => isLive(found, now));
  if (!entry) throw new NotFoundError('The journal holds no entries.', { context: { journal: ['empty'] } });
  return viewOf(reader, entry);
}

/** The latest entry; 404 when the journal holds none. */
export async function latestJournalEntry(reader: JournalReader, scope: JournalScope): Promise<JournalFetchView> {
  const now = nowMs();
  const [entry] = (await newestJournalEntries(scope, retentionStart(now), 1)).filter((found) => isLive(found, now));
  if (!entry) throw new NotFoundError('The journal holds no entries.', { context: { journal: ['empty'] } });
  return viewOf(reader, entry);
}

/**
 * The live entries after `rawOffset`, up to `count`: one Query from the offset's own entry, which
 * must exist and be live (else 404: unknown, of another install's journal, or expired).
 */
async function entriesAfter(scope: JournalScope, rawOffset: string, count: number): Promise<JournalEntry[]> {
  const offset = rawOffset.toLowerCase();
  if (!isJournalOffset(offset)) throw offsetNotFound(rawOffset);
  const now = nowMs();
  const [own, ...after] = await journalEntriesFrom(scope, offset, count + 1);
  if (!own || own.offset !== offset || !isLive(own, now)) throw offsetNotFound(rawOffset);
  return after.filter((entry) => isLive(entry, now));
}

/** The entry after an offset; undefined when the offset is the latest (the route answers 204). */
export async function nextJournalEntry(
  reader: JournalReader,
  scope: JournalScope,
  rawOffset: string,
): Promise<JournalFetchView | undefined> {
  const [next] = await entriesAfter(scope, rawOffset, 1);
  return next ? viewOf(reader, next) : undefined;
}

async function batchOf(
  reader: JournalReader,
  entries: readonly JournalEntry[],
): Promise<BatchResponse<JournalFetchView>> {
  const startedAt = new Date(nowMs()).toISOString();
  return envelope(startedAt, await Promise.all(entries.map((entry) => viewOf(reader, entry))), []);
}

export async function earliestJournalBatch(
  reader: JournalReader,
  scope: JournalScope,
  count: number,
): Promise<BatchResponse<JournalFetchView>> {
  const now = nowMs();
  const entries = (await journalEntriesFrom(scope, retentionStart(now), count)).filter((entry) => isLive(entry, now));
  return batchOf(reader, entries);
}

/** The newest `count` live entries, in journal order (oldest first), so `next` goes on from the last. */
export async function latestJournalBatch(
  reader: JournalReader,
  scope: JournalScope,
  count: number,
): Promise<BatchResponse<JournalFetchView>> {
  const now = nowMs();
  const entries = (await newestJournalEntries(scope, retentionStart(now), count)).filter((entry) => isLive(entry, now));
  return batchOf(reader, entries.reverse());
}

export async function nextJournalBatch(
  reader: JournalReader,
  scope: JournalScope,
  rawOffset: string,
  count: number,
): Promise<BatchResponse<JournalFetchView>> {
  return batchOf(reader, await entriesAfter(scope, rawOffset, count));
}

/**
 * The entries of up to journalBatchMax offsets (one BatchGetItem), in the order asked, each once;
 * an unknown or expired offset is an error of the answer (the route answers 207 when there is one).
 */
export async function readJournalBatch(
  reader: JournalReader,
  scope: JournalScope,
  inputs: readonly string[],
): Promise<BatchResponse<JournalFetchView>> {
  const startedAt = new Date(nowMs()).toISOString();
  const asked = [...new Set(inputs.map((input) => input.toLowerCase()))];
  const offsets = asked.filter(isJournalOffset);
  const now = nowMs();
  const found = new Map(
    (await findJournalEntries(scope, offsets))
      .filter((entry) => isLive(entry, now))
      .map((entry) => [entry.offset, entry]),
  );
  const results: JournalFetchView[] = [];
  const errors = [];
  for (const input of asked) {
    const entry = found.get(input);
    if (entry) results.push(await viewOf(reader, entry));
    else errors.push(batchErrorOf(offsetNotFound(input)));
  }
  return envelope(startedAt, results, errors);
}

/**
 * The file of an entry, for the signed URL a read handed out (journal-files.ts): 403 for a bad or
 * expired signature, 404 when the entry is gone (expired since).
 */
export async function readJournalFile(
  rawAppId: string,
  rawOffset: string,
  expires: string | undefined,
  signature: string | undefined,
): Promise<unknown> {
  const appId = /^[0-9]{1,15}$/.test(rawAppId) ? Number(rawAppId) : 0;
  const offset = rawOffset.toLowerCase();
  await requireJournalFileSignature(appId, offset, expires, signature);
  const entry = isJournalOffset(offset) ? await findJournalEntry({ appId }, offset) : undefined;
  if (!entry || !isLive(entry, nowMs())) throw offsetNotFound(rawOffset);
  return JSON.parse(entry.file) as unknown;
}
