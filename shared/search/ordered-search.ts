import {
  countOrderedKeys,
  orderIndexShards,
  readOrderState,
  readOrderedKeys,
  type OrderedKey,
  type OrderIndexKind,
  type SortKeyRange,
} from '../db/order-index';
import { readSearchValues } from '../db/search-projection';
import type { ObjectType } from '../objects/object-types';
import type { SearchForms } from '../records/search-forms';
import type { SearchBudget } from './search-budget';
import type { CompiledFilter, CompiledSearch } from './search-request';

/**
 * Searches that page by create or modified date read the ordered index (shared/db/order-index.ts)
 * instead of the projection: per shard, the first offset + limit keys of the range in the
 * search's order, merged; then the page's values by key. The total is exact: the type's record
 * count when nothing is filtered, else a count of the range's keys (DynamoDB counts keys only).
 * Cost per search: 1 BatchGetItem (index state and count), 16 Queries of at most offset + limit
 * keys each, 16 count Queries over the range's keys when filtered, 1 BatchGetItem of the page:
 * bounded by the page, not the account, except the filtered total, which reads the matching keys
 * (about 60 bytes each: a range of n records costs about n / 68 read units). A range whose bounds
 * cross (GT and LT one instant) matches nothing and reads nothing.
 */

/** What an indexed search reads: which order, which range of sort keys, which direction. */
export interface OrderedPlan {
  kind: OrderIndexKind;
  range: SortKeyRange;
  descending: boolean;
  isFiltered: boolean;
}

/** The property names whose compared form is the order's: the create date's and the modified date's names. */
function kindOf(type: ObjectType, propertyName: string): OrderIndexKind | undefined {
  if (propertyName === 'createdate' || propertyName === 'hs_createdate') return 'c';
  if (propertyName === type.modifiedProperty || propertyName === 'hs_lastmodifieddate') return 'm';
  return undefined;
}

/** A filter's sort-key bounds: `<form>#` is before every key of that form, `<form>#~` after every one. */
function boundsOf(filter: CompiledFilter): SortKeyRange | undefined {
  const value = filter.value;
  if (value === undefined) return undefined;
  switch (filter.operator) {
    case 'EQ':
      return { low: `${value}#`, high: `${value}#~` };
    case 'GT':
      return { low: `${value}#~` };
    case 'GTE':
      return { low: `${value}#` };
    case 'LT':
      return { high: `${value}#` };
    case 'LTE':
      return { high: `${value}#~` };
    case 'BETWEEN':
      return filter.highValue === undefined ? undefined : { low: `${value}#`, high: `${filter.highValue}#~` };
    default:
      return undefined;
  }
}

/**
 * The plan of a search the index answers: no `query`, sorted by (or, unsorted, by default by) the
 * create or modified date, and at most one filter group whose filters are all ranges on that same
 * date. Any other search is undefined: it reads the projection.
 */
export function orderedPlanOf(type: ObjectType, search: CompiledSearch): OrderedPlan | undefined {
  if (search.queryTerms.length > 0 || search.groups.length > 1 || search.sort.kind !== 'n') return undefined;
  const kind = kindOf(type, search.sort.propertyName);
  if (!kind) return undefined;
  // The filters of the group all hold: the range is their bounds' intersection, the highest low and the lowest high.
  const lows: string[] = [];
  const highs: string[] = [];
  for (const filter of search.groups[0] ?? []) {
    if (filter.kind !== 'n' || kindOf(type, filter.propertyName) !== kind) return undefined;
    const bounds = boundsOf(filter);
    if (!bounds) return undefined;
    if (bounds.low !== undefined) lows.push(bounds.low);
    if (bounds.high !== undefined) highs.push(bounds.high);
  }
  const low = lows.sort().at(-1);
  const high = highs.sort()[0];
  return {
    kind,
    range: { ...(low === undefined ? {} : { low }), ...(high === undefined ? {} : { high }) },
    descending: search.sort.isDescending,
    isFiltered: (search.groups[0]?.length ?? 0) > 0,
  };
}

/** The keys of every shard, merged in the search's order, up to `take` of them. */
function mergeShards(shards: readonly OrderedKey[][], descending: boolean, take: number): OrderedKey[] {
  const heads = shards.map(() => 0);
  const merged: OrderedKey[] = [];
  while (merged.length < take) {
    let best = -1;
    for (let shard = 0; shard < shards.length; shard += 1) {
      const candidate = shards[shard]?.[heads[shard] ?? 0];
      if (!candidate) continue;
      const current = best < 0 ? undefined : shards[best]?.[heads[best] ?? 0];
      if (!current || (descending ? candidate.sk > current.sk : candidate.sk < current.sk)) best = shard;
    }
    if (best < 0) break;
    merged.push(shards[best]?.[heads[best] ?? 0] as OrderedKey);
    heads[best] = (heads[best] ?? 0) + 1;
  }
  return merged;
}

/**
 * The page of an indexed search, or undefined when the hub's records are not all in the index yet
 * (an account older than the index, until its backfill): the caller then reads the projection.
 */
export async function orderedSearchPage(
  type: ObjectType,
  hubId: number,
  search: CompiledSearch,
  plan: OrderedPlan,
  budget: SearchBudget,
): Promise<{ total: number; page: SearchForms[] } | undefined> {
  // Filters whose bounds cross (GT and LT one instant, a BETWEEN whose high is before its low) match
  // nothing; DynamoDB refuses a key condition whose upper bound is below its lower one.
  const { low, high } = plan.range;
  if (low !== undefined && high !== undefined && low > high) return { total: 0, page: [] };
  const state = await readOrderState(type, hubId);
  if (!state.isIndexed) return undefined;
  const need = search.offset + search.limit;
  const shards = Array.from({ length: orderIndexShards }, (_, shard) => shard);
  const [keys, counts] = await Promise.all([
    Promise.all(
      shards.map((shard) =>
        readOrderedKeys(type, hubId, plan.kind, shard, plan.range, {
          descending: plan.descending,
          limit: need,
          signal: budget.signal,
        }),
      ),
    ),
    plan.isFiltered
      ? Promise.all(shards.map((shard) => countOrderedKeys(type, hubId, plan.kind, shard, plan.range, budget.signal)))
      : Promise.resolve([state.count]),
  ]);
  budget.throwIfOver();
  const ids = mergeShards(keys, plan.descending, need)
    .slice(search.offset)
    .map((key) => key.id);
  const values = ids.length > 0 ? await readSearchValues(type, hubId, ids) : new Map<string, Record<string, string>>();
  // A record archived between the two reads is left out of the page (the total counted it), as the projection's search does.
  const page = ids.flatMap((id) => {
    const v = values.get(id);
    return v ? [{ id, v, l: {}, n: {} }] : [];
  });
  return { total: counts.reduce((sum, count) => sum + count, 0), page };
}
