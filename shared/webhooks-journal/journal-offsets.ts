/**
 * A journal entry's offset: a UUID (RFC 9562 version 7 layout) whose lower-case hex spelling sorts
 * in commit order, so that "the entry after an offset" is a Query for the first sort key after it.
 * The 48 time bits hold the stream record's approximate time (epoch ms); the 74 bits version 7 leaves
 * to the writer hold the last 17 decimal digits of the stream record's sequence number (57 bits) and
 * the event's index among the events of that stream record (17 bits). DynamoDB Streams numbers the
 * records of a shard in increasing order, and every change of one item is in one shard, so the
 * offsets of one record's changes sort as the changes were committed. The same stream record gives
 * the same offsets when it is handed out again.
 */
const sequenceDigits = 17;
const indexBits = 17n;
export const maxEventsPerStreamRecord = 2 ** Number(indexBits);
const lowBits = 62n;
const offsetPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function spell(value: bigint): string {
  const hex = value.toString(16).padStart(32, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function offsetOfParts(timeMs: number, payload: bigint): string {
  const time = BigInt(Math.max(0, Math.min(Math.floor(timeMs), 2 ** 48 - 1)));
  const high = payload >> lowBits;
  const low = payload & ((1n << lowBits) - 1n);
  return spell((time << 80n) | (7n << 76n) | (high << 64n) | (2n << 62n) | low);
}

/** The digits of a sequence number that order it within its shard (none: 0). */
function sequenceValueOf(sequenceNumber: string | undefined): bigint {
  if (sequenceNumber === undefined || !/^[0-9]{1,64}$/.test(sequenceNumber)) return 0n;
  return BigInt(sequenceNumber.slice(-sequenceDigits));
}

/** The offset of the `index`th event (0-based, below maxEventsPerStreamRecord) of a stream record. */
export function journalOffsetOf(approximateAtMs: number, sequenceNumber: string | undefined, index: number): string {
  return offsetOfParts(approximateAtMs, (sequenceValueOf(sequenceNumber) << indexBits) | BigInt(index));
}

/** The lowest offset of an instant: every entry of that instant or later sorts at or after it. */
export function lowestOffsetAt(timeMs: number): string {
  return offsetOfParts(timeMs, 0n);
}

/** Whether a string is spelled as this service spells offsets (lower-case hex; any other spelling names no entry). */
export function isJournalOffset(value: string): boolean {
  return offsetPattern.test(value);
}
