import type { ObjectType } from '../objects/object-types';
import * as recordsDb from '../db/records';
import type { CrmRecord } from '../db/records';
import { readSearchValues, scanSearchProjection } from '../db/search-projection';
import { ServiceUnavailableError } from '../base/errors';
import { isNumericId } from '../records/record-id';
import { uniquePropertyOf } from '../records/record-values';
import { toRecordView, type RecordView } from '../records/record-view';
import { lookupFor } from '../records/read-records';
import { loadPropertySchema } from '../properties/type-properties';
import { compileSearchMatch, searchOrder, type SearchMatch } from './match-search';
import { SearchBudget, SearchDeadlineError } from './search-budget';
import { projectionQueryOf } from './projection-query';
import { orderedPlanOf, orderedSearchPage } from './ordered-search';
import { searchFormsOf, type SearchForms } from '../records/search-forms';
import {
  compileSearch,
  searchLimits,
  searchPropertyNames,
  type CompiledSearch,
  type SearchInput,
} from './search-request';

export interface RecordSearchResult {
  total: number;
  results: RecordView[];
  paging?: { next: { after: string } };
}

/** One page of a search: the exact total and the page's records in order, with (at least) the values to show. */
export interface SearchPage {
  total: number;
  page: SearchForms[];
}

/**
 * The seam of the search. The DynamoDB projection answers it here; a deployment that outgrows
 * it (see README, Search design) implements this one function over a dedicated engine fed from
 * DynamoDB Streams, and everything around it (validation, fast path, records, views) stays.
 * `budget` carries the deadline and the cancellation signal, and paces long loops (search-budget.ts).
 */
export type RecordSearchIndex = (
  type: ObjectType,
  hubId: number,
  search: CompiledSearch,
  budget: SearchBudget,
) => Promise<SearchPage>;

/** Every search leaves this much of the 10 s Lambda timeout for reading the page and answering. */
const searchBudgetMs = 7000;
/** At most this many records are read by key on the fast path (one BatchGetItem). */
const maxFastPathCandidates = 100;

/**
 * The matches of a search, counted exactly, keeping only the first offset + limit in order: a
 * binary heap of at most that many, the match that sorts last on top, so a new match costs one
 * comparison when it cannot reach the page and O(log(offset + limit)) when it can. The order is
 * total (ties broken by id), so nothing of the page is ever lost; memory stays bounded by the page
 * (at most 10,200 forms), not by the account. Every step is short and the loops pause between
 * steps when the search's budget says so (search-budget.ts): between records, and between the
 * token filters of one record (each can take a millisecond on a 64 KiB value), so no stretch of
 * matching, keeping or ordering holds the process much longer than one slice.
 */
export class SearchPageCollector {
  private total = 0;
  /** The best matches so far: heap[0] is the one that sorts last. */
  private readonly heap: SearchForms[] = [];
  private readonly keep: number;
  private readonly order: (left: SearchForms, right: SearchForms) => number;
  private readonly match: SearchMatch;

  constructor(
    private readonly search: CompiledSearch,
    private readonly budget: SearchBudget = new SearchBudget(Number.POSITIVE_INFINITY),
  ) {
    this.keep = search.offset + search.limit;
    this.order = searchOrder(search.sort);
    this.match = compileSearchMatch(search);
  }

  async add(forms: readonly SearchForms[]): Promise<void> {
    for (const entry of forms) {
      if (this.budget.isDue()) await this.budget.pause();
      const isMatch = this.match.isCostly
        ? await this.match.matchesPaced(entry, this.budget)
        : this.match.matches(entry);
      if (!isMatch) continue;
      this.total += 1;
      const { heap } = this;
      if (heap.length < this.keep) {
        heap.push(entry);
        this.siftUp(heap.length - 1);
      } else if (heap[0] && this.order(entry, heap[0]) < 0) {
        // Sorts before the last one kept: it takes that one's place.
        heap[0] = entry;
        this.siftDown(0);
      }
    }
  }

  /** The page: the kept matches past the offset, in order, taken off the heap last first. */
  async page(): Promise<SearchPage> {
    const { heap } = this;
    const onPage = Math.max(0, heap.length - this.search.offset);
    const page: SearchForms[] = [];
    for (let taken = 0; taken < onPage; taken += 1) {
      if (this.budget.isDue()) await this.budget.pause();
      const last = heap[0] as SearchForms;
      const moved = heap.pop() as SearchForms;
      if (heap.length > 0) {
        heap[0] = moved;
        this.siftDown(0);
      }
      page.push(last);
    }
    return { total: this.total, page: page.reverse() };
  }

  private siftUp(start: number): void {
    const { heap } = this;
    let index = start;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (this.order(heap[index] as SearchForms, heap[parent] as SearchForms) <= 0) return;
      [heap[index], heap[parent]] = [heap[parent] as SearchForms, heap[index] as SearchForms];
      index = parent;
    }
  }

  private siftDown(start: number): void {
    const { heap } = this;
    let index = start;
    for (;;) {
      const left = 2 * index + 1;
      const right = left + 1;
      let largest = index;
      if (left < heap.length && this.order(heap[left] as SearchForms, heap[largest] as SearchForms) > 0) largest = left;
      if (right < heap.length && this.order(heap[right] as SearchForms, heap[largest] as SearchForms) > 0)
        largest = right;
      if (largest === index) return;
      [heap[index], heap[largest]] = [heap[largest] as SearchForms, heap[index] as SearchForms];
      index = largest;
    }
  }
}

/**
 * Reads the hub's projection (Query chains per shard, filters pushed down; after each shard's first
 * page only the compared forms come back), checking, counting and keeping the page's matches as
 * pages arrive; then, by key, the values of the page's records that came without them. A record
 * archived between the two reads is left out of the page (the total counted it). The budget's
 * signal reaches every Query: at the deadline, or when anything fails, all of them are canceled.
 */
export function createProjectionSearchIndex(options: { pageItems?: number } = {}): RecordSearchIndex {
  return async (type, hubId, search, budget) => {
    const collector = new SearchPageCollector(search, budget);
    const withValues = new WeakSet<SearchForms>();
    await scanSearchProjection(
      type,
      hubId,
      projectionQueryOf(search),
      budget.signal,
      async (forms, isFirstPage) => {
        if (isFirstPage) for (const entry of forms) withValues.add(entry);
        await collector.add(forms);
      },
      options.pageItems,
    );
    const { total, page: chosen } = await collector.page();
    budget.throwIfOver();
    // Later pages brought back only the compared forms: their values to show come by key.
    const missing = chosen.filter((forms) => !withValues.has(forms)).map((forms) => forms.id);
    const values =
      missing.length > 0 ? await readSearchValues(type, hubId, missing) : new Map<string, Record<string, string>>();
    const page = chosen.flatMap((forms) => {
      if (withValues.has(forms)) return [forms];
      const v = values.get(forms.id);
      return v ? [{ ...forms, v }] : [];
    });
    return { total, page };
  };
}

/** The search over the DynamoDB projection, as deployed. */
export const projectionSearchIndex: RecordSearchIndex = createProjectionSearchIndex();

/** The id an hs_object_id filter names, when it is one this service could have issued. */
function idOfFilterValue(form: string): string | undefined {
  const bytes = Buffer.from(form, 'hex');
  if (bytes.length !== 8 || !((bytes[0] ?? 0) & 0x80)) return undefined;
  bytes[0] = (bytes[0] ?? 0) & 0x7f;
  const value = bytes.readDoubleBE(0);
  return Number.isSafeInteger(value) && isNumericId(String(value)) ? String(value) : undefined;
}

/**
 * When every group pins its records by a unique value (EQ or IN on the type's unique property, such
 * as companies' domain or contacts' email, or on hs_object_id), the
 * candidates are found by key, never by reading the projection: O(1) calls whatever the hub's size.
 */
function uniqueCandidates(type: ObjectType, search: CompiledSearch): { values: string[]; ids: string[] } | undefined {
  const unique = uniquePropertyOf(type);
  if (search.groups.length === 0) return undefined;
  const values = new Set<string>();
  const ids = new Set<string>();
  for (const group of search.groups) {
    const pin = group.find(
      (filter) =>
        (filter.operator === 'EQ' || filter.operator === 'IN') &&
        ((unique !== undefined && filter.propertyName === unique) ||
          (filter.propertyName === 'hs_object_id' &&
            [filter.value, ...(filter.values ?? [])].every(
              (value) => value === undefined || idOfFilterValue(value) !== undefined,
            ))),
    );
    if (!pin) return undefined;
    const pinned = pin.operator === 'EQ' ? [pin.value ?? ''] : (pin.values ?? []);
    for (const value of pinned) {
      if (pin.propertyName === unique) values.add(value);
      else ids.add(idOfFilterValue(value) ?? '');
    }
  }
  return values.size + ids.size <= maxFastPathCandidates ? { values: [...values], ids: [...ids] } : undefined;
}

async function readCandidates(
  type: ObjectType,
  hubId: number,
  candidates: { values: string[]; ids: string[] },
): Promise<CrmRecord[]> {
  const ids = new Set(candidates.ids);
  // Unique values are stored normalized (lower case); the unique item of a value names its holder.
  if (candidates.values.length === 1) {
    const owner = await recordsDb.findUniqueValueOwner(type, hubId, {
      propertyName: uniquePropertyOf(type) ?? '',
      value: candidates.values[0] ?? '',
    });
    if (owner) ids.add(owner);
  } else if (candidates.values.length > 1) {
    for (const owner of (
      await recordsDb.findUniqueValueOwners(type, hubId, uniquePropertyOf(type) ?? '', candidates.values)
    ).values())
      ids.add(owner);
  }
  if (ids.size === 0) return [];
  if (ids.size === 1) {
    const record = await recordsDb.findRecord(type, hubId, [...ids][0] ?? '');
    return record ? [record] : [];
  }
  return [...(await recordsDb.findRecords(type, hubId, [...ids])).values()];
}

/**
 * The answer's record, from the projection alone: its v form holds every set value and the
 * computed ones (written with the record), so no second read is needed and nothing can differ.
 */
function recordOf(type: ObjectType, forms: SearchForms): CrmRecord {
  const createdAt = forms.v.createdate ?? '';
  return {
    id: forms.id,
    properties: forms.v,
    history: {},
    associations: {},
    uniqueValues: [],
    createdAt,
    updatedAt: forms.v[type.modifiedProperty] ?? createdAt,
    archived: false,
    version: 0,
  };
}

/**
 * POST /crm/v3/objects/{objectType}/search. Consistent at once: the projection and the unique
 * items are written in the record's own transaction and read strongly consistent.
 */
export async function searchRecords(
  type: ObjectType,
  hubId: number,
  input: SearchInput,
  index: RecordSearchIndex = projectionSearchIndex,
  /** False reads the projection even where the ordered index could answer (the tests compare the two). */
  useOrderedIndex = true,
): Promise<RecordSearchResult> {
  const deadlineMs = performance.now() + searchBudgetMs;
  const lookup = await loadPropertySchema(type, hubId, searchPropertyNames(input));
  const search = compileSearch(input, lookup, type);
  const budget = new SearchBudget(deadlineMs);
  let found: SearchPage;
  try {
    const candidates = uniqueCandidates(type, search);
    const plan = useOrderedIndex && !candidates ? orderedPlanOf(type, search) : undefined;
    if (candidates) {
      const collector = new SearchPageCollector(search, budget);
      await collector.add((await readCandidates(type, hubId, candidates)).map((entry) => searchFormsOf(type, entry)));
      found = await collector.page();
    } else {
      found =
        (plan ? await orderedSearchPage(type, hubId, search, plan, budget) : undefined) ??
        (await index(type, hubId, search, budget));
    }
  } catch (error) {
    if (!(error instanceof SearchDeadlineError)) throw error;
    throw new ServiceUnavailableError('The search did not finish in time; add filters that narrow it and try again.');
  } finally {
    budget.end();
  }
  const { total } = found;
  const records = found.page.map((forms) => recordOf(type, forms));
  const options = { properties: search.properties };
  const viewLookup = await lookupFor(type, hubId, options);
  const results = records.map((record) => {
    const { propertiesWithHistory, associations, archivedAt, ...view } = toRecordView(
      type,
      record,
      options,
      viewLookup,
    );
    void propertiesWithHistory;
    void associations;
    void archivedAt;
    return view;
  });
  const next = search.offset + search.limit;
  return next < Math.min(total, searchLimits.maxResults)
    ? { total, results, paging: { next: { after: String(next) } } }
    : { total, results };
}
