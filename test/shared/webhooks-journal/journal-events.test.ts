import type { JournalFilter } from '../../../shared/db/webhooks-journal';
import { journalEventsOf } from '../../../shared/webhooks-journal/journal-events';
import { conditionHolds, matchesJournalFilters } from '../../../shared/webhooks-journal/journal-filter-match';
import type { ChangeRecord } from '../../../shared/webhooks/record-changes';
import { history, later, recordItem, streamRecord } from '../../support/stream-records';

const record = (
  eventName: ChangeRecord['eventName'],
  newImage?: Record<string, unknown>,
  oldImage?: Record<string, unknown>,
  sequenceNumber = '100',
): ChangeRecord => ({
  ...streamRecord(eventName, newImage, oldImage, {
    recordId: `r${sequenceNumber}`,
    approximateAtMs: 1_777_000_000_000,
  }),
  sequenceNumber,
});

const summary = (record: ChangeRecord, isRemovedForGood = false) =>
  journalEventsOf(record, isRemovedForGood).map((event) => `${event.subscriptionType} ${event.action}`);

describe('journalEventsOf', () => {
  it('reads a creation as CREATE with its first values, then its association keys', () => {
    const created = recordItem(
      'CONTACT#1000000000000101',
      { email: 'ada@example.com', firstname: 'Ada' },
      { associations: { '0-2/55/1': 'contact_to_company' } },
    );

    const events = journalEventsOf(record('INSERT', created), false);

    expect(events.map((event) => `${event.subscriptionType} ${event.action}`)).toEqual([
      'OBJECT CREATE',
      'ASSOCIATION ASSOCIATION_ADDED',
    ]);
    expect(events[0]?.changedProperties).toEqual({ email: 'ada@example.com', firstname: 'Ada' });
    expect(events[1]?.association).toEqual({
      associatedObjectTypeId: '0-2',
      associatedObjectId: '55',
      associationTypeId: 1,
    });
    expect((events[0]?.offset ?? '') < (events[1]?.offset ?? '')).toBe(true);
  });

  it('reads an update as one UPDATE with the changed values, and a removed association key', () => {
    const before = recordItem(
      'CONTACT#1000000000000101',
      { email: 'ada@example.com', firstname: 'Ada' },
      { associations: { '0-2/55/1': 'contact_to_company' } },
    );
    const after = recordItem(
      'CONTACT#1000000000000101',
      { email: 'ada@example.com', firstname: 'Grace', lastname: 'Hopper' },
      { updatedAt: later, version: 2, history: { firstname: history('Grace', later) } },
    );

    const events = journalEventsOf(record('MODIFY', after, before), false);

    expect(events.map((event) => `${event.subscriptionType} ${event.action}`)).toEqual([
      'OBJECT UPDATE',
      'ASSOCIATION ASSOCIATION_REMOVED',
    ]);
    expect(events[0]?.changedProperties).toEqual({ firstname: 'Grace', lastname: 'Hopper' });
    expect(events[0]?.values).toEqual({ email: 'ada@example.com', firstname: 'Grace', lastname: 'Hopper' });
  });

  it('reads an archive as DELETE, a restore as RESTORE and a merge as MERGE with its ids', () => {
    const archived = recordItem(
      'ARCHIVED_CONTACT#1000000000000101',
      { email: 'a@example.com' },
      { archived: true, archivedAt: later, version: 2 },
    );
    const restored = recordItem('CONTACT#1000000000000101', { email: 'a@example.com' }, { version: 3 });
    const merged = recordItem(
      'CONTACT#1000000000000199',
      { email: 'a@example.com' },
      { merge: { primaryObjectId: '1000000000000101', mergedObjectIds: ['1000000000000101', '1000000000000104'] } },
    );

    expect(summary(record('INSERT', archived))).toEqual(['OBJECT DELETE']);
    expect(summary(record('INSERT', restored))).toEqual(['OBJECT RESTORE']);
    expect(journalEventsOf(record('INSERT', merged), false)).toEqual([
      expect.objectContaining({
        action: 'MERGE',
        objectId: '1000000000000199',
        merge: { primaryObjectId: '1000000000000101', mergedObjectIds: ['1000000000000101', '1000000000000104'] },
      }),
    ]);
  });

  it('reads a contact removed for good as GDPR_DELETE and DELETE, and any other removal as nothing', () => {
    const contact = recordItem('CONTACT#1000000000000101', { email: 'a@example.com' });

    expect(summary(record('REMOVE', undefined, contact), true)).toEqual([
      'GDPR_PRIVACY_DELETION GDPR_DELETE',
      'OBJECT DELETE',
    ]);
    expect(summary(record('REMOVE', undefined, contact), false)).toEqual([]);
  });

  it("marks a removal for good with the record's key, the same from the active and the archived item", () => {
    const active = recordItem('CONTACT#1000000000000101', { email: 'a@example.com' });
    const archived = recordItem(
      'ARCHIVED_CONTACT#1000000000000101',
      { email: 'a@example.com' },
      { archived: true, archivedAt: later, version: 2 },
    );

    const fromActive = journalEventsOf(record('REMOVE', undefined, active, '100'), true);
    const fromArchived = journalEventsOf(record('REMOVE', undefined, archived, '101'), true);

    expect(fromActive.map((event) => event.removalKey)).toEqual(fromArchived.map((event) => event.removalKey));
    expect(fromActive[0]?.removalKey).toEqual(expect.stringContaining('1000000000000101'));
  });

  it('gives a stream record handed out again the same offsets, and later records later ones', () => {
    const contact = recordItem('CONTACT#1000000000000101', { email: 'a@example.com' });

    const first = journalEventsOf(record('INSERT', contact, undefined, '100'), false).map((event) => event.offset);
    const again = journalEventsOf(record('INSERT', contact, undefined, '100'), false).map((event) => event.offset);
    const next = journalEventsOf(record('INSERT', contact, undefined, '101'), false).map((event) => event.offset);

    expect(again).toEqual(first);
    expect((first[0] ?? '') < (next[0] ?? '')).toBe(true);
  });
});

describe('journal filters', () => {
  const condition = (operator: string, value?: string, values?: string[]) => ({
    filterType: 'CRM_OBJECT_PROPERTY',
    property: 'amount',
    operator,
    ...(value === undefined ? {} : { value }),
    ...(values === undefined ? {} : { values }),
  });
  const filter = (...conditions: ReturnType<typeof condition>[]): JournalFilter => ({
    id: 1,
    appId: 1,
    subscriptionId: 1,
    filter: { conditions },
    createdAt: 0,
  });

  it('compares numbers as numbers and text case-insensitively', () => {
    expect(conditionHolds(condition('GT', '9'), { amount: '10' })).toBe(true);
    expect(conditionHolds(condition('LT', '9'), { amount: '10' })).toBe(false);
    expect(conditionHolds(condition('EQ', 'LEAD'), { amount: 'lead' })).toBe(true);
    expect(conditionHolds(condition('CONTAINS', 'CM'), { amount: 'Acme' })).toBe(true);
    expect(conditionHolds(condition('IN', undefined, ['5', '10']), { amount: '10.0' })).toBe(true);
    expect(conditionHolds(condition('NOT_IN', undefined, ['5']), { amount: '10' })).toBe(true);
  });

  it('reads a missing property as the empty value, which no range comparison holds for', () => {
    expect(conditionHolds(condition('IS_EMPTY'), {})).toBe(true);
    expect(conditionHolds(condition('IS_NOT_EMPTY'), {})).toBe(false);
    expect(conditionHolds(condition('LT', '5'), {})).toBe(false);
  });

  it('takes everything without filters; else a filter whose conditions all hold (AND within, OR across)', () => {
    const high = filter(condition('GTE', '100'), condition('LTE', '200'));
    const zero = filter(condition('EQ', '0'));

    expect(matchesJournalFilters([], { amount: '7' })).toBe(true);
    expect(matchesJournalFilters([high, zero], { amount: '150' })).toBe(true);
    expect(matchesJournalFilters([high, zero], { amount: '0' })).toBe(true);
    expect(matchesJournalFilters([high, zero], { amount: '250' })).toBe(false);
  });
});
