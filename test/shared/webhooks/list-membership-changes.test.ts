import { listMembershipChangeOf, listMembershipChangesOf } from '../../../shared/webhooks/list-membership-changes';
import { recordItem, streamRecord } from '../../support/stream-records';

const joinedAtMs = 1_777_000_000_250;
const reverseItem = (overrides: Record<string, unknown> = {}) => ({
  pk: 'HUB#40000001',
  sk: 'LIST_OF#0-1#1000000000000101#000200000007',
  listId: '200000007',
  joinedAtMs,
  processingType: 'MANUAL',
  ...overrides,
});
const membership = { hubId: 40000001, listId: '200000007', objectTypeId: '0-1', recordId: '1000000000000101' };

describe('listMembershipChangeOf', () => {
  it('reads the insert of a reverse item as ADDED_TO_LIST at its join time', () => {
    const record = streamRecord('INSERT', reverseItem(), undefined, { recordId: 's1', approximateAtMs: 1 });

    expect(listMembershipChangeOf(record)).toEqual({
      ...membership,
      action: 'ADDED_TO_LIST',
      occurredAt: joinedAtMs,
      streamRecordId: 's1',
    });
  });

  it("reads the removal of a reverse item as REMOVED_FROM_LIST at the stream's time, never before the join", () => {
    const removedAt = joinedAtMs + 60_000;
    const removal = streamRecord('REMOVE', undefined, reverseItem(), { recordId: 's2', approximateAtMs: removedAt });
    // The stream's time is rounded down to the second: a removal right after the join reads as at the join.
    const quick = streamRecord('REMOVE', undefined, reverseItem(), {
      recordId: 's3',
      approximateAtMs: joinedAtMs - 250,
    });

    expect(listMembershipChangeOf(removal)).toEqual({
      ...membership,
      action: 'REMOVED_FROM_LIST',
      occurredAt: removedAt,
      streamRecordId: 's2',
    });
    expect(listMembershipChangeOf(quick)?.occurredAt).toBe(joinedAtMs);
  });

  it('reads a custom type and an unpadded list id from the key', () => {
    const item = reverseItem({ sk: 'LIST_OF#2-3001#1000000000000101#000000000042' });

    expect(listMembershipChangeOf(streamRecord('INSERT', item))).toMatchObject({
      objectTypeId: '2-3001',
      listId: '42',
    });
  });

  it('gives nothing for a put over an existing membership, the other membership items, or any other item', () => {
    const memberPartition = 'HUB#40000001#LIST#000200000007';
    const others = [
      streamRecord('MODIFY', reverseItem(), reverseItem()),
      streamRecord('MODIFY', reverseItem({ joinedAtMs: joinedAtMs + 1 }), reverseItem()),
      streamRecord('INSERT', { pk: memberPartition, sk: 'R#1000000000000101', joinedAtMs }),
      streamRecord('REMOVE', undefined, { pk: memberPartition, sk: 'R#1000000000000101', joinedAtMs }),
      streamRecord('INSERT', { pk: memberPartition, sk: `J#${joinedAtMs}#1000000000000101`, recordId: '1' }),
      streamRecord(
        'MODIFY',
        { pk: memberPartition, sk: 'SIZE#03', size: 2 },
        { pk: memberPartition, sk: 'SIZE#03', size: 1 },
      ),
      streamRecord('INSERT', { pk: 'HUB#40000001', sk: 'LIST#000200000007', listId: '200000007' }),
      streamRecord('INSERT', recordItem('CONTACT#1000000000000101', { email: 'ada@example.com' })),
      streamRecord('INSERT', reverseItem({ joinedAtMs: String(joinedAtMs) })),
      streamRecord('INSERT', reverseItem({ pk: 'APP#7' })),
      streamRecord('INSERT', reverseItem({ sk: 'LIST_OF#0-1#1000000000000101#200000007' })),
    ];

    expect(listMembershipChangesOf(others)).toEqual([]);
  });

  it('keeps the stream order of a batch', () => {
    const second = reverseItem({ sk: 'LIST_OF#0-1#1000000000000102#000200000007' });
    const batch = [
      streamRecord('INSERT', reverseItem(), undefined, { recordId: 'a' }),
      streamRecord('INSERT', second, undefined, { recordId: 'b' }),
      streamRecord('REMOVE', undefined, reverseItem(), { recordId: 'c', approximateAtMs: joinedAtMs + 1000 }),
    ];

    expect(
      listMembershipChangesOf(batch).map((change) => [change.streamRecordId, change.action, change.recordId]),
    ).toEqual([
      ['a', 'ADDED_TO_LIST', '1000000000000101'],
      ['b', 'ADDED_TO_LIST', '1000000000000102'],
      ['c', 'REMOVED_FROM_LIST', '1000000000000101'],
    ]);
  });
});
