import { randomUUID } from 'node:crypto';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../../shared/db/client';
import { type CountChange, countChange } from '../../../shared/db/counters';

/** countChange against DynamoDB Local: the count item a transaction moves with the items it counts. */
const keyOf = () => ({ pk: `COUNTER_TEST#${randomUUID()}`, sk: 'COUNT' });

/**
 * Runs the change alone in a transaction: true when it committed, false when its condition failed. A
 * transaction cancelled by a conflict with a racing one is run again (at most 100 times).
 */
async function apply(change: CountChange): Promise<boolean> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    try {
      await db.send(new TransactWriteCommand({ TransactItems: [countChange(change)] }));
      return true;
    } catch (error) {
      const { name, CancellationReasons } = error as { name?: string; CancellationReasons?: { Code?: string }[] };
      if (name !== 'TransactionCanceledException') throw error;
      if (CancellationReasons?.some((reason) => reason.Code === 'ConditionalCheckFailed')) return false;
    }
  }
  throw new Error('the transaction kept conflicting');
}

async function countAt(key: { pk: string; sk: string }, attribute: string): Promise<number | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }));
  return Item?.[attribute] as number | undefined;
}

describe('countChange', () => {
  it('never takes a capped count past its max, even with writers racing', async () => {
    const key = keyOf();
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, () => apply({ key, attribute: 'things', delta: 1, max: 3 })),
    );
    expect(outcomes.filter(Boolean)).toHaveLength(3);
    expect(await countAt(key, 'things')).toBe(3);
    // A decrease is never capped.
    expect(await apply({ key, attribute: 'things', delta: -1, max: 3 })).toBe(true);
    expect(await countAt(key, 'things')).toBe(2);
  });

  it('refuses an increase by more than the room left', async () => {
    const key = keyOf();
    expect(await apply({ key, attribute: 'things', delta: 4, max: 5 })).toBe(true);
    expect(await apply({ key, attribute: 'things', delta: 2, max: 5 })).toBe(false);
    expect(await apply({ key, attribute: 'things', delta: 1, max: 5 })).toBe(true);
    expect(await countAt(key, 'things')).toBe(5);
  });

  it('keeps a count that may not go below zero at zero', async () => {
    const key = keyOf();
    expect(await apply({ key, attribute: 'value', delta: -1, neverBelowZero: true })).toBe(false);
    expect(await apply({ key, attribute: 'value', delta: 1 })).toBe(true);
    expect(await apply({ key, attribute: 'value', delta: -1, neverBelowZero: true })).toBe(true);
    expect(await apply({ key, attribute: 'value', delta: -1, neverBelowZero: true })).toBe(false);
    expect(await countAt(key, 'value')).toBe(0);
  });

  it('fails on a missing item when the item must exist, and counts freely without a condition', async () => {
    const key = keyOf();
    expect(await apply({ key, attribute: 'live', delta: 1, max: 10, itemMustExist: true })).toBe(false);
    expect(await countAt(key, 'live')).toBeUndefined();
    expect(await apply({ key, attribute: 'live', delta: -2 })).toBe(true);
    expect(await countAt(key, 'live')).toBe(-2);
    expect(await apply({ key, attribute: 'live', delta: 3, max: 1, itemMustExist: true })).toBe(true);
    expect(await apply({ key, attribute: 'live', delta: 1, max: 1, itemMustExist: true })).toBe(false);
    expect(await countAt(key, 'live')).toBe(1);
  });
});
