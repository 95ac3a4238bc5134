import fc from 'fast-check';
import { requireStoredObjectType } from '../../../shared/objects/object-types';
import { standardRulesOf } from '../../../shared/properties/standard-catalogs';
import { archiveRecord } from '../../../shared/records/archive-record';
import { batchCreateRecords } from '../../../shared/records/batch-records';
import { createRecord } from '../../../shared/records/create-record';
import { mergeRecords } from '../../../shared/records/merge-records';
import { updateRecord } from '../../../shared/records/update-record';
import { orderedPlanOf } from '../../../shared/search/ordered-search';
import { searchRecords } from '../../../shared/search/search-records';
import { compileSearch, searchLimits, type SearchInput } from '../../../shared/search/search-request';
import { dynamoCallCounter } from '../../../shared/db/client';
import { provision } from '../../support/harness';

/**
 * The ordered index (shared/db/order-index.ts) against the full evaluation of the projection, on
 * random contacts written by random creates, batch creates, updates, archives and merges: every
 * search the index answers gives the same ids in the same order and the same total, page after
 * page to the end.
 */
const contacts = requireStoredObjectType('contacts');
const hub = { hubId: 0, appId: 0, userId: 0 };
const active = new Set<string>();
/** The create and modified instants of every record ever written, as filter values to pick from. */
const instants: string[] = [];

type Operation =
  | { kind: 'create'; name: string }
  | { kind: 'batch'; count: number }
  | { kind: 'update'; pick: number; name: string }
  | { kind: 'archive'; pick: number }
  | { kind: 'merge'; pick: number; other: number };

const operation: fc.Arbitrary<Operation> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant('create' as const), name: fc.constantFrom('Ada', 'Grace', 'Linus') }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('batch' as const), count: fc.integer({ min: 2, max: 12 }) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('update' as const),
      pick: fc.nat(),
      name: fc.constantFrom('Alan', 'Barbara'),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('archive' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('merge' as const), pick: fc.nat(), other: fc.nat() }) },
);

const pickFrom = (pick: number): string | undefined => {
  const ids = [...active];
  return ids.length === 0 ? undefined : ids[pick % ids.length];
};

const remember = (record: { id: string; createdAt: string; updatedAt: string }) => {
  active.add(record.id);
  instants.push(record.createdAt, record.updatedAt);
};

async function apply(step: Operation): Promise<void> {
  if (step.kind === 'create') {
    remember(await createRecord(hub, contacts, { properties: { firstname: step.name } }));
  } else if (step.kind === 'batch') {
    const created = await batchCreateRecords(hub, contacts, {
      inputs: Array.from({ length: step.count }, (_, index) => ({ properties: { firstname: `Batch ${index}` } })),
    });
    for (const record of created.results) remember(record);
  } else if (step.kind === 'update') {
    const id = pickFrom(step.pick);
    if (id) remember(await updateRecord(hub, contacts, id, { properties: { firstname: step.name } }));
  } else if (step.kind === 'archive') {
    const id = pickFrom(step.pick);
    if (id && (await archiveRecord(contacts, hub.hubId, id))) active.delete(id);
  } else {
    const primary = pickFrom(step.pick);
    const other = pickFrom(step.other);
    if (!primary || !other || primary === other) return;
    const merged = await mergeRecords(hub, contacts, { primaryObjectId: primary, objectIdToMerge: other });
    active.delete(primary);
    active.delete(other);
    remember(merged);
  }
}

beforeAll(async () => {
  const installation = await provision();
  Object.assign(hub, { hubId: installation.hubId, appId: installation.appId, userId: installation.userId });
  // About 55 active records: some in each of the index's 16 shards, and several pages at every limit below 25.
  for (const step of fc.sample(operation, { numRuns: 45, seed: 22 })) await apply(step);
}, 120_000);

const dateProperty = fc.constantFrom('createdate', 'lastmodifieddate', 'hs_lastmodifieddate');
const search: fc.Arbitrary<SearchInput & { limit: number }> = fc
  .record({
    property: dateProperty,
    filter: fc.constantFrom('none', 'EQ', 'GT', 'GTE', 'LT', 'LTE', 'BETWEEN', 'GT+LT'),
    low: fc.nat(),
    high: fc.nat(),
    sort: fc.constantFrom('ASCENDING', 'DESCENDING', 'none'),
    limit: fc.integer({ min: 1, max: 25 }),
  })
  .map(({ property, filter, low, high, sort, limit }) => {
    const at = (pick: number) => instants[pick % instants.length] ?? '2026-01-01T00:00:00.000Z';
    const [from, to] = [at(low), at(high)].sort();
    const filters =
      filter === 'none'
        ? []
        : filter === 'BETWEEN'
          ? [{ propertyName: property, operator: 'BETWEEN' as const, value: from, highValue: to }]
          : filter === 'GT+LT'
            ? [
                { propertyName: property, operator: 'GT' as const, value: from },
                { propertyName: property, operator: 'LT' as const, value: to },
              ]
            : [{ propertyName: property, operator: filter, value: at(low) }];
    // Unsorted searches are ordered by create date: only a create-date search is then the index's.
    const sortedBy = sort === 'none' ? 'createdate' : property;
    return {
      ...(filters.length > 0 ? { filterGroups: [{ filters }] } : {}),
      ...(sort === 'none' ? {} : { sorts: [{ propertyName: sortedBy, direction: sort }] }),
      properties: ['firstname', 'lastmodifieddate', 'createdate'],
      limit,
    } satisfies SearchInput;
  })
  .filter((input) => orderedPlanOf(contacts, compileSearch(input, standardRulesOf(contacts), contacts)) !== undefined);

/** Every page of a search, to the end: the records in order (id and values) and each page's total. */
async function allPages(
  input: SearchInput,
  useOrderedIndex: boolean,
): Promise<{ ids: { id: string; properties: Record<string, string | null> }[]; totals: number[] }> {
  const ids: { id: string; properties: Record<string, string | null> }[] = [];
  const totals: number[] = [];
  let after: string | undefined;
  do {
    const page = await searchRecords(
      contacts,
      hub.hubId,
      { ...input, ...(after ? { after } : {}) },
      undefined,
      useOrderedIndex,
    );
    ids.push(...page.results.map((record) => ({ id: record.id, properties: record.properties })));
    totals.push(page.total);
    after = page.paging?.next.after;
  } while (after !== undefined);
  return { ids, totals };
}

/**
 * What the full evaluation answers page after page with the search's limit, from one evaluation at
 * the largest limit: the evaluation keeps the first offset + limit matches of one total order
 * (search-records.ts SearchPageCollector), so its page at any offset is that order's slice there.
 */
async function evaluatedPages(input: SearchInput & { limit: number }): ReturnType<typeof allPages> {
  const whole = await allPages({ ...input, limit: searchLimits.maxLimit }, false);
  const total = whole.totals[0] ?? 0;
  const pages = Math.max(1, Math.ceil(total / input.limit));
  return { ids: whole.ids, totals: Array.from({ length: pages }, () => total) };
}

describe('the ordered index', () => {
  it('wrote every operation (records were created, archived and merged)', () => {
    expect(active.size).toBeGreaterThan(20);
    expect(instants.length).toBeGreaterThan(active.size * 2);
  });

  it('answers every date-ordered search like the full evaluation: ids, order, total, paging to the end', async () => {
    await fc.assert(
      fc.asyncProperty(search, async (input) => {
        expect(await allPages(input, true)).toEqual(await evaluatedPages(input));
      }),
      // Each page is a search of 16 to 32 Queries, and a limit of 1 pages record by record: these
      // runs make about 110 pages of indexed searches (and one evaluation each), a fraction of the timeout.
      { numRuns: 30, seed: 7 },
    );
  }, 120_000);

  it('answers a range that holds no instant (GT and LT one instant, the high bound before the low) with nothing', async () => {
    const [earlier, later] = [instants[0] ?? '', instants.at(-1) ?? ''].sort();
    const empty: SearchInput['filterGroups'][] = [
      [
        {
          filters: [
            { propertyName: 'createdate', operator: 'GT', value: later },
            { propertyName: 'createdate', operator: 'LT', value: later },
          ],
        },
      ],
      [
        {
          filters: [
            { propertyName: 'lastmodifieddate', operator: 'GTE', value: later },
            { propertyName: 'lastmodifieddate', operator: 'LT', value: earlier },
          ],
        },
      ],
      [{ filters: [{ propertyName: 'createdate', operator: 'BETWEEN', value: later, highValue: earlier }] }],
    ];
    for (const filterGroups of empty) {
      const input: SearchInput = {
        filterGroups,
        sorts: [{ propertyName: filterGroups?.[0]?.filters[0]?.propertyName ?? '', direction: 'ASCENDING' }],
        limit: 10,
      };
      expect(orderedPlanOf(contacts, compileSearch(input, standardRulesOf(contacts), contacts))).toBeDefined();
      expect(await allPages(input, true)).toEqual({ ids: [], totals: [0] });
      expect(await allPages(input, false)).toEqual({ ids: [], totals: [0] });
    }
  });

  it('reads the page, not the account: one Query per shard and one count read for an unfiltered page', async () => {
    dynamoCallCounter.reset();
    const page = await searchRecords(contacts, hub.hubId, { limit: 5, properties: ['firstname'] });
    expect(page.total).toBe(active.size);
    // A batch DynamoDB leaves partly unprocessed is sent again: those retries are counted apart.
    expect(dynamoCallCounter.callsApartFromRetries()).toEqual({ BatchGetItemCommand: 2, QueryCommand: 16 });
  });
});
