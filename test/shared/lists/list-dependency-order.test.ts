import fc from 'fast-check';
import type { DynamicListEntry } from '../../../shared/db/dynamic-lists';
import { orderedByDependency } from '../../../shared/lists/dynamic-lists';

/** The order a record write evaluates a type's DYNAMIC lists in: every list after the DYNAMIC lists its IN_LIST filters name. */
const entry = (listId: string, listIds: string[] = []): DynamicListEntry => ({
  listId,
  objectTypeId: '0-1',
  tree: { type: 'OR', branches: [] },
  isTimeRelative: false,
  isProcessing: false,
  filtersChangedAtMs: 0,
  ...(listIds.length > 0 ? { listIds } : {}),
});

describe('orderedByDependency', () => {
  it('puts each list after the lists it names, whatever the order it is given in', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10 }).chain((count) =>
          fc.tuple(
            // Each list may name lists of lower index (no cycle) and lists that are not DYNAMIC (ids 900+).
            fc.tuple(
              ...Array.from({ length: count }, (_, index) =>
                fc.subarray([...Array.from({ length: index }, (_, lower) => String(lower)), '900', '901']),
              ),
            ),
            fc.shuffledSubarray(
              Array.from({ length: count }, (_, index) => index),
              { minLength: count, maxLength: count },
            ),
          ),
        ),
        ([named, order]) => {
          const entries = order.map((index) => entry(String(index), named[index] as string[]));
          const ordered = orderedByDependency(entries);
          expect(ordered.map((each) => each.listId).sort()).toEqual(entries.map((each) => each.listId).sort());
          const place = new Map(ordered.map((each, index) => [each.listId, index]));
          for (const each of ordered)
            for (const listId of each.listIds ?? [])
              if (place.has(listId)) expect(place.get(listId)).toBeLessThan(place.get(each.listId) as number);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('keeps every list of a cycle (which the creates refuse) rather than lose one', () => {
    const ordered = orderedByDependency([entry('1', ['2']), entry('2', ['1']), entry('3')]);
    expect(ordered.map((each) => each.listId).sort()).toEqual(['1', '2', '3']);
  });
});
