import { isJournalOffset, journalOffsetOf, lowestOffsetAt } from '../../../shared/webhooks-journal/journal-offsets';

/** Offsets are UUIDs whose spelling sorts as the stream records (time, then sequence number, then event index). */
describe('journal offsets', () => {
  const at = Date.UTC(2026, 2, 1, 12, 0, 0);

  it('are version 7 UUIDs that sort by time, then sequence number, then the event index', () => {
    const offsets = [
      journalOffsetOf(at, '4421584500000000017450439091', 0),
      journalOffsetOf(at, '4421584500000000017450439091', 1),
      journalOffsetOf(at, '4421584500000000017450439092', 0),
      journalOffsetOf(at + 1, '100', 0),
      journalOffsetOf(at + 1000, '99', 5),
    ];

    expect(offsets.every(isJournalOffset)).toBe(true);
    expect([...offsets].sort()).toEqual(offsets);
    expect(new Set(offsets).size).toBe(offsets.length);
  });

  it('are the same for a stream record handed out again, so its entries are written over themselves', () => {
    expect(journalOffsetOf(at, '000000000000000000042', 3)).toBe(journalOffsetOf(at, '000000000000000000042', 3));
  });

  it('start an instant at its lowest offset: every offset of that instant or later sorts at or after it', () => {
    const lowest = lowestOffsetAt(at);

    expect(lowest <= journalOffsetOf(at, '0', 0)).toBe(true);
    expect(lowest > journalOffsetOf(at - 1, '99999999999999999', 131071)).toBe(true);
  });

  it('recognizes only the lower-case spelling with version 7 and the RFC variant', () => {
    expect(isJournalOffset('00000000-0001-7000-8000-000000000001')).toBe(true);
    expect(isJournalOffset('00000000-0001-4000-8000-000000000001')).toBe(false);
    expect(isJournalOffset('00000000-0001-7000-8000-00000000000G')).toBe(false);
    expect(isJournalOffset('not-an-offset')).toBe(false);
  });
});
