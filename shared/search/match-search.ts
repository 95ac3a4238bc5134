import type { SearchForms } from '../companies/search-forms';
import { queryPropertyNames, type CompiledFilter, type CompiledSearch, type CompiledSort, type FormKind } from './search-request';

/** The value a filter or sort compares, in the form its property's type uses; undefined when unset. */
export function formOf(forms: SearchForms, propertyName: string, kind: FormKind): string | undefined {
  if (kind === 'n') return forms.n[propertyName];
  if (kind === 'v') return forms.v[propertyName];
  return forms.l[propertyName] ?? forms.v[propertyName];
}

/**
 * Glob match where `*` stands for any run of characters: the two-pointer walk, at most
 * text.length * pattern.length steps and no regular expression to backtrack.
 */
export function globMatches(text: string, pattern: string): boolean {
  let t = 0;
  let p = 0;
  let star = -1;
  let resume = 0;
  while (t < text.length) {
    if (p < pattern.length && pattern[p] !== '*' && pattern[p] === text[t]) {
      t += 1;
      p += 1;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p;
      resume = t;
      p += 1;
    } else if (star >= 0) {
      p = star + 1;
      resume += 1;
      t = resume;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p] === '*') p += 1;
  return p === pattern.length;
}

const wordPattern = /[\p{L}\p{N}]+/gu;

/**
 * The tokens of a value: the whole value, its whitespace-separated parts and its words (runs of
 * letters and digits), so "jane@hubspot.com" matches "*@hubspot.com" and "Acme, Inc." matches "inc".
 */
export function tokensOf(text: string): Set<string> {
  const tokens = new Set<string>([text]);
  for (const part of text.split(/\s+/)) if (part !== '') tokens.add(part);
  for (const word of text.match(wordPattern) ?? []) tokens.add(word);
  return tokens;
}

export function containsToken(text: string, pattern: string): boolean {
  const tokens = tokensOf(text);
  if (!pattern.includes('*')) return tokens.has(pattern);
  for (const token of tokens) if (globMatches(token, pattern)) return true;
  return false;
}

/** The text CONTAINS_TOKEN looks at: the compared form for strings and enumerations, the stored value for numbers and dates. */
function tokenTextOf(forms: SearchForms, filter: CompiledFilter): string | undefined {
  return filter.kind === 'n' ? forms.v[filter.propertyName] : formOf(forms, filter.propertyName, filter.kind);
}

export function matchesFilter(forms: SearchForms, filter: CompiledFilter): boolean {
  const value = formOf(forms, filter.propertyName, filter.kind);
  const wanted = filter.value ?? '';
  switch (filter.operator) {
    case 'EQ': return value !== undefined && value === wanted;
    // Records without a value are "not equal" too, as in HubSpot's index (a must_not clause).
    case 'NEQ': return value === undefined || value !== wanted;
    case 'LT': return value !== undefined && value < wanted;
    case 'LTE': return value !== undefined && value <= wanted;
    case 'GT': return value !== undefined && value > wanted;
    case 'GTE': return value !== undefined && value >= wanted;
    case 'BETWEEN': return value !== undefined && value >= wanted && value <= (filter.highValue ?? '');
    case 'IN': return value !== undefined && (filter.values ?? []).includes(value);
    case 'NOT_IN': return value === undefined || !(filter.values ?? []).includes(value);
    case 'HAS_PROPERTY': return forms.v[filter.propertyName] !== undefined;
    case 'NOT_HAS_PROPERTY': return forms.v[filter.propertyName] === undefined;
    case 'CONTAINS_TOKEN': {
      const text = tokenTextOf(forms, filter);
      return text !== undefined && containsToken(text, wanted);
    }
    case 'NOT_CONTAINS_TOKEN': {
      const text = tokenTextOf(forms, filter);
      return text === undefined || !containsToken(text, wanted);
    }
  }
}

export function matchesQuery(forms: SearchForms, terms: readonly string[]): boolean {
  return terms.every((term) => queryPropertyNames.some((name) => formOf(forms, name, 'lower')?.includes(term) ?? false));
}

/** Groups are OR-ed, filters inside a group AND-ed; no group at all matches every record. */
export function matchesSearch(forms: SearchForms, search: Pick<CompiledSearch, 'groups' | 'queryTerms'>): boolean {
  const isFiltered = search.groups.length === 0 || search.groups.some((group) => group.every((filter) => matchesFilter(forms, filter)));
  return isFiltered && matchesQuery(forms, search.queryTerms);
}

/**
 * The one order of a search: by the sort property's compared form, records without a value
 * last in either direction, ties by id in the sort's direction (ids are unique, so paging by
 * offset is stable).
 */
export function searchOrder(sort: CompiledSort): (a: SearchForms, b: SearchForms) => number {
  const sign = sort.isDescending ? -1 : 1;
  const byId = (a: SearchForms, b: SearchForms) => sign * ((a.id.length - b.id.length) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return (a, b) => {
    const left = formOf(a, sort.propertyName, sort.kind);
    const right = formOf(b, sort.propertyName, sort.kind);
    if (left === right) return byId(a, b);
    if (left === undefined) return 1;
    if (right === undefined) return -1;
    return sign * (left < right ? -1 : 1);
  };
}
