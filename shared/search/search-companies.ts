import * as companies from '../db/companies';
import type { CompanyRecord } from '../db/companies';
import { readSearchValues, scanSearchProjection } from '../db/company-search';
import { ServiceUnavailableError } from '../errors';
import { isNumericId } from '../companies/company-id';
import { uniqueDomainProperty } from '../companies/company-values';
import { toCompanyView, type CompanyView } from '../companies/company-view';
import { lookupFor } from '../companies/read-companies';
import { loadCompanyPropertySchema } from '../properties/company-properties';
import { matchesSearch, searchOrder } from './match-search';
import { projectionQueryOf } from './projection-query';
import { searchFormsOf, type SearchForms } from '../companies/search-forms';
import { compileSearch, searchLimits, searchPropertyNames, type CompiledSearch, type SearchInput } from './search-request';

export interface CompanySearchResult {
  total: number;
  results: CompanyView[];
  paging?: { next: { after: string } };
}

/** One page of a search: the exact total and the page's companies in order, with (at least) the values to show. */
export interface SearchPage {
  total: number;
  page: SearchForms[];
}

/**
 * The seam of the search. The DynamoDB projection answers it here; a deployment that outgrows
 * it (see README, Search design) implements this one function over a dedicated engine fed from
 * DynamoDB Streams, and everything around it (validation, fast path, records, views) stays.
 */
export type CompanySearchIndex = (hubId: number, search: CompiledSearch, deadlineMs: number) => Promise<SearchPage>;

/** Every search leaves this much of the 10 s Lambda timeout for reading the page and answering. */
const searchBudgetMs = 7000;
/** At most this many companies are read by key on the fast path (one BatchGetItem). */
const maxFastPathCandidates = 100;

/**
 * The matches of a search, counted exactly, keeping only the first offset + limit in order: when
 * more than twice that (at least 1,000) are held, they are sorted and cut back. The order is
 * total (ties broken by id), so the cut never loses a record of the page; memory stays bounded
 * by the page (at most about 20,400 forms), not by the account.
 */
export class SearchPageCollector {
  private total = 0;
  private kept: SearchForms[] = [];
  private readonly keep: number;
  private readonly order: (left: SearchForms, right: SearchForms) => number;

  constructor(private readonly search: CompiledSearch) {
    this.keep = search.offset + search.limit;
    this.order = searchOrder(search.sort);
  }

  add(forms: readonly SearchForms[]): void {
    for (const entry of forms) {
      if (!matchesSearch(entry, this.search)) continue;
      this.total += 1;
      this.kept.push(entry);
    }
    if (this.kept.length > Math.max(2 * this.keep, 1000)) this.kept = this.kept.sort(this.order).slice(0, this.keep);
  }

  page(): SearchPage {
    const { offset, limit } = this.search;
    return { total: this.total, page: this.kept.sort(this.order).slice(offset, offset + limit) };
  }
}

function page(forms: SearchForms[], search: CompiledSearch): SearchPage {
  const collector = new SearchPageCollector(search);
  collector.add(forms);
  return collector.page();
}

/**
 * Reads the hub's projection (Query chains per shard, filters pushed down, only the compared forms
 * back), checking, counting and keeping the page's matches as pages arrive; then the page's values
 * by key. A company archived between the two reads is left out of the page (the total counted it).
 */
export const projectionSearchIndex: CompanySearchIndex = async (hubId, search, deadlineMs) => {
  try {
    const collector = new SearchPageCollector(search);
    await scanSearchProjection(hubId, projectionQueryOf(search), deadlineMs, (forms) => collector.add(forms));
    const { total, page: chosen } = collector.page();
    // The scan brought back only the compared forms; the page's values to show come by key.
    const values = chosen.length > 0 ? await readSearchValues(hubId, chosen.map((forms) => forms.id)) : new Map<string, Record<string, string>>();
    const page = chosen.flatMap((forms) => {
      const v = values.get(forms.id);
      return v ? [{ ...forms, v }] : [];
    });
    return { total, page };
  } catch (error) {
    if ((error as { name?: string }).name !== 'SearchDeadlineError') throw error;
    throw new ServiceUnavailableError('The search did not finish in time; add filters that narrow it and try again.');
  }
};

/** The id an hs_object_id filter names, when it is one this service could have issued. */
function idOfFilterValue(form: string): string | undefined {
  const bytes = Buffer.from(form, 'hex');
  if (bytes.length !== 8 || !((bytes[0] ?? 0) & 0x80)) return undefined;
  bytes[0] = (bytes[0] ?? 0) & 0x7f;
  const value = bytes.readDoubleBE(0);
  return Number.isSafeInteger(value) && isNumericId(String(value)) ? String(value) : undefined;
}

/**
 * When every group pins its records by a unique value (EQ or IN on domain or hs_object_id), the
 * candidates are found by key, never by reading the projection: O(1) calls whatever the hub's size.
 */
function uniqueCandidates(search: CompiledSearch): { domains: string[]; ids: string[] } | undefined {
  if (search.groups.length === 0) return undefined;
  const domains = new Set<string>();
  const ids = new Set<string>();
  for (const group of search.groups) {
    const pin = group.find((filter) => (filter.operator === 'EQ' || filter.operator === 'IN')
      && (filter.propertyName === 'domain' || (filter.propertyName === 'hs_object_id' && [filter.value, ...(filter.values ?? [])].every((value) => value === undefined || idOfFilterValue(value) !== undefined))));
    if (!pin) return undefined;
    const values = pin.operator === 'EQ' ? [pin.value ?? ''] : pin.values ?? [];
    for (const value of values) {
      if (pin.propertyName === 'domain') domains.add(value);
      else ids.add(idOfFilterValue(value) ?? '');
    }
  }
  return domains.size + ids.size <= maxFastPathCandidates ? { domains: [...domains], ids: [...ids] } : undefined;
}

async function readCandidates(hubId: number, candidates: { domains: string[]; ids: string[] }): Promise<CompanyRecord[]> {
  const ids = new Set(candidates.ids);
  // Domains are stored normalised (lower case); the unique item of a value names its holder.
  if (candidates.domains.length === 1) {
    const owner = await companies.findUniqueValueOwner(hubId, { propertyName: uniqueDomainProperty, value: candidates.domains[0] ?? '' });
    if (owner) ids.add(owner);
  } else if (candidates.domains.length > 1) {
    for (const owner of (await companies.findUniqueValueOwners(hubId, uniqueDomainProperty, candidates.domains)).values()) ids.add(owner);
  }
  if (ids.size === 0) return [];
  if (ids.size === 1) {
    const record = await companies.findCompany(hubId, [...ids][0] ?? '');
    return record ? [record] : [];
  }
  return [...(await companies.findCompanies(hubId, [...ids])).values()];
}

/**
 * The answer's record, from the projection alone: its v form holds every set value and the
 * computed ones (written with the record), so no second read is needed and nothing can differ.
 */
function recordOf(forms: SearchForms): CompanyRecord {
  const createdAt = forms.v.createdate ?? '';
  return {
    id: forms.id, properties: forms.v, history: {}, associations: {}, uniqueValues: [],
    createdAt, updatedAt: forms.v.hs_lastmodifieddate ?? createdAt, archived: false, version: 0,
  };
}

/**
 * POST /crm/v3/objects/companies/search. Consistent at once: the projection and the unique
 * items are written in the record's own transaction and read strongly consistent.
 */
export async function searchCompanies(hubId: number, input: SearchInput, index: CompanySearchIndex = projectionSearchIndex): Promise<CompanySearchResult> {
  const deadlineMs = performance.now() + searchBudgetMs;
  const lookup = await loadCompanyPropertySchema(hubId, searchPropertyNames(input));
  const search = compileSearch(input, lookup);
  const candidates = uniqueCandidates(search);
  const found = candidates
    ? page((await readCandidates(hubId, candidates)).map(searchFormsOf), search)
    : await index(hubId, search, deadlineMs);
  const { total } = found;
  const records = found.page.map(recordOf);
  const options = { properties: search.properties };
  const viewLookup = await lookupFor(hubId, options);
  const results = records.map((record) => {
    const { propertiesWithHistory, associations, archivedAt, ...view } = toCompanyView(record, options, viewLookup);
    void propertiesWithHistory; void associations; void archivedAt;
    return view;
  });
  const next = search.offset + search.limit;
  return next < Math.min(total, searchLimits.maxResults) ? { total, results, paging: { next: { after: String(next) } } } : { total, results };
}
