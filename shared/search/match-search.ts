import type { SearchForms } from '../records/search-forms';
import { compileGlob, LiteralSearch } from './glob-pattern';
import { TermSet } from './term-set';
import type { CompiledFilter, CompiledSearch, CompiledSort, FormKind } from './search-request';

/** The value a filter or sort compares, in the form its property's type uses; undefined when unset. */
export function formOf(forms: SearchForms, propertyName: string, kind: FormKind): string | undefined {
  if (kind === 'n') return forms.n[propertyName];
  if (kind === 'v') return forms.v[propertyName];
  return forms.l[propertyName] ?? forms.v[propertyName];
}

const wordPattern = /[\p{L}\p{N}]+/gu;

/**
 * The tokens of a value: the whole value, its whitespace-separated parts and its words (runs of
 * letters and digits), so "jane@hubspot.com" matches "*@hubspot.com" and "Acme, Inc." matches "inc".
 * Linear in the value: one split and one scan.
 */
export function tokensOf(text: string): Set<string> {
  const tokens = new Set<string>([text]);
  for (const part of text.split(/\s+/)) if (part !== '') tokens.add(part);
  for (const word of text.match(wordPattern) ?? []) tokens.add(word);
  return tokens;
}

/** A record's token sets, by text, built at most once per record whatever the number of token filters on the same property. */
export type TokenCache = Map<string, Set<string>>;

/**
 * CONTAINS_TOKEN for one pattern, compiled once per search. Linear in the value: every token is a
 * substring of it, so a value without the pattern's longest literal has no matching token and is
 * refused after one pass, before it is split; otherwise each token is matched in time linear in its
 * length (compileGlob), and the tokens together are at most three times the value.
 */
export function compileTokenMatch(pattern: string): (text: string, cache?: TokenCache) => boolean {
  const glob = compileGlob(pattern);
  const hasWildcard = pattern.includes('*');
  return (text, cache) => {
    if (text.length < glob.minLength || !glob.longest.mayOccurIn(text) || glob.longest.indexIn(text) < 0) return false;
    let tokens = cache?.get(text);
    if (!tokens) {
      tokens = tokensOf(text);
      cache?.set(text, tokens);
    }
    if (!hasWildcard) return tokens.has(pattern);
    for (const token of tokens) if (glob.matches(token)) return true;
    return false;
  };
}

export function containsToken(text: string, pattern: string): boolean {
  return compileTokenMatch(pattern)(text);
}

/** The text CONTAINS_TOKEN (and the substring operators) look at: the compared form for strings and enumerations, the stored value for numbers and dates. */
function tokenTextOf(forms: SearchForms, filter: CompiledFilter): string | undefined {
  return filter.kind === 'n' ? forms.v[filter.propertyName] : formOf(forms, filter.propertyName, filter.kind);
}

export type FilterMatch = (forms: SearchForms, cache: TokenCache) => boolean;

/** The options a multiple-checkbox enumeration's stored value holds (joined by ';'). */
const optionsOf = (value: string): Set<string> => new Set(value.split(';').filter((option) => option !== ''));

/** Whether every option of `wanted` is in `held`. */
const holdsAll = (held: Set<string>, wanted: Set<string>): boolean => {
  for (const option of wanted) if (!held.has(option)) return false;
  return true;
};

/**
 * One filter, compiled once per search (or list): patterns and value lists prepared, so a record
 * costs time linear in its values. Search and list filters share it: one evaluation of a value.
 */
export function compileFilterMatch(filter: CompiledFilter): FilterMatch {
  const { propertyName, kind } = filter;
  const formValue = (forms: SearchForms) => formOf(forms, propertyName, kind);
  const wanted = filter.value ?? '';
  switch (filter.operator) {
    case 'EQ':
      return (forms) => formValue(forms) === wanted;
    // Records without a value are "not equal" too, as in HubSpot's index (a must_not clause).
    case 'NEQ':
      return (forms) => formValue(forms) !== wanted;
    case 'LT':
      return (forms) => {
        const value = formValue(forms);
        return value !== undefined && value < wanted;
      };
    case 'LTE':
      return (forms) => {
        const value = formValue(forms);
        return value !== undefined && value <= wanted;
      };
    case 'GT':
      return (forms) => {
        const value = formValue(forms);
        return value !== undefined && value > wanted;
      };
    case 'GTE':
      return (forms) => {
        const value = formValue(forms);
        return value !== undefined && value >= wanted;
      };
    case 'BETWEEN': {
      const high = filter.highValue ?? '';
      return (forms) => {
        const value = formValue(forms);
        return value !== undefined && value >= wanted && value <= high;
      };
    }
    case 'IN': {
      const listed = new Set(filter.values ?? []);
      return (forms) => {
        const value = formValue(forms);
        return value !== undefined && listed.has(value);
      };
    }
    case 'NOT_IN': {
      const listed = new Set(filter.values ?? []);
      return (forms) => {
        const value = formValue(forms);
        return value === undefined || !listed.has(value);
      };
    }
    case 'HAS_PROPERTY':
      return (forms) => forms.v[propertyName] !== undefined;
    case 'NOT_HAS_PROPERTY':
      return (forms) => forms.v[propertyName] === undefined;
    case 'CONTAINS_TOKEN': {
      const matches = compileTokenMatch(wanted);
      return (forms, cache) => {
        const text = tokenTextOf(forms, filter);
        return text !== undefined && matches(text, cache);
      };
    }
    case 'NOT_CONTAINS_TOKEN': {
      const matches = compileTokenMatch(wanted);
      return (forms, cache) => {
        const text = tokenTextOf(forms, filter);
        return text === undefined || !matches(text, cache);
      };
    }
    case 'STARTS_WITH': {
      const prefixes = filter.values ?? [];
      return (forms) => {
        const text = tokenTextOf(forms, filter);
        return text !== undefined && prefixes.some((prefix) => text.startsWith(prefix));
      };
    }
    case 'ENDS_WITH': {
      const suffixes = filter.values ?? [];
      return (forms) => {
        const text = tokenTextOf(forms, filter);
        return text !== undefined && suffixes.some((suffix) => text.endsWith(suffix));
      };
    }
    // Substrings are found with Knuth-Morris-Pratt: linear in the text whatever the literal.
    case 'CONTAINS':
    case 'NOT_CONTAINS': {
      const searches = (filter.values ?? []).map((literal) => new LiteralSearch(literal));
      const isNegated = filter.operator === 'NOT_CONTAINS';
      return (forms) => {
        const text = tokenTextOf(forms, filter);
        if (text === undefined) return isNegated;
        const found = searches.some((search) => search.mayOccurIn(text) && search.indexIn(text) >= 0);
        return found !== isNegated;
      };
    }
    case 'NOT_BETWEEN': {
      const high = filter.highValue ?? '';
      return (forms) => {
        const value = formValue(forms);
        return value === undefined || value < wanted || value > high;
      };
    }
    case 'CONTAINS_ANY':
    case 'CONTAINS_NONE': {
      const listed = filter.values ?? [];
      const isNegated = filter.operator === 'CONTAINS_NONE';
      return (forms) => {
        const value = formValue(forms);
        if (value === undefined) return isNegated;
        const held = optionsOf(value);
        return listed.some((option) => held.has(option)) !== isNegated;
      };
    }
    case 'CONTAINS_ALL':
    case 'NOT_CONTAINS_ALL': {
      const listed = new Set(filter.values ?? []);
      const isNegated = filter.operator === 'NOT_CONTAINS_ALL';
      return (forms) => {
        const value = formValue(forms);
        return value === undefined ? isNegated : holdsAll(optionsOf(value), listed) !== isNegated;
      };
    }
    case 'SET_EQ':
    case 'SET_NEQ': {
      const listed = new Set(filter.values ?? []);
      const isNegated = filter.operator === 'SET_NEQ';
      return (forms) => {
        const value = formValue(forms);
        if (value === undefined) return isNegated;
        const held = optionsOf(value);
        return (held.size === listed.size && holdsAll(held, listed)) !== isNegated;
      };
    }
  }
}

/** What paces a long loop: SearchBudget (search-budget.ts) is one. */
export interface Pace {
  isDue(): boolean;
  pause(): Promise<void>;
}

/** A search's filter groups and query, compiled once. */
export interface SearchMatch {
  /** Whether a record matches, in one go. */
  matches(forms: SearchForms): boolean;
  /** The same answer, pausing between filters when `pace` says so. */
  matchesPaced(forms: SearchForms, pace: Pace): Promise<boolean>;
  /**
   * True when a filter or the query costs more than a comparison (token patterns, query terms): on
   * 64 KiB values one record's 18 token filters can take over 10 ms, so they are paced filter by filter.
   */
  readonly isCostly: boolean;
}

/**
 * A search's filter groups and query, compiled once: a record then costs time linear in the
 * length of its values (times the number of filters), however long the patterns and however many
 * query terms. Groups are OR-ed, filters inside a group AND-ed; no group at all matches every record.
 */
export function compileSearchMatch(search: Pick<CompiledSearch, 'groups' | 'queryTerms' | 'searched'>): SearchMatch {
  const queryProperties = search.searched.queryProperties;
  const groups = search.groups.map((group) => group.map(compileFilterMatch));
  const terms = new TermSet(search.queryTerms);
  const queryTexts = (forms: SearchForms) => queryProperties.map((name) => formOf(forms, name, 'lower'));
  return {
    isCostly:
      terms.size > 0 ||
      search.groups.some((group) =>
        group.some((filter) => filter.operator === 'CONTAINS_TOKEN' || filter.operator === 'NOT_CONTAINS_TOKEN'),
      ),
    matches(forms) {
      const cache: TokenCache = new Map();
      const isFiltered = groups.length === 0 || groups.some((group) => group.every((matches) => matches(forms, cache)));
      return isFiltered && (terms.size === 0 || terms.allOccurIn(queryTexts(forms)));
    },
    async matchesPaced(forms, pace) {
      const cache: TokenCache = new Map();
      let isFiltered = groups.length === 0;
      for (const group of groups) {
        let isGroupMatched = true;
        for (const matches of group) {
          if (pace.isDue()) await pace.pause();
          if (!matches(forms, cache)) {
            isGroupMatched = false;
            break;
          }
        }
        if (isGroupMatched) {
          isFiltered = true;
          break;
        }
      }
      if (!isFiltered || terms.size === 0) return isFiltered;
      if (pace.isDue()) await pace.pause();
      return terms.allOccurIn(queryTexts(forms));
    },
  };
}

/**
 * The one order of a search: by the sort property's compared form, records without a value
 * last in either direction, ties by id in the sort's direction (ids are unique, so paging by
 * offset is stable).
 */
export function searchOrder(sort: CompiledSort): (a: SearchForms, b: SearchForms) => number {
  const sign = sort.isDescending ? -1 : 1;
  const byId = (a: SearchForms, b: SearchForms) =>
    sign * (a.id.length - b.id.length || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return (a, b) => {
    const left = formOf(a, sort.propertyName, sort.kind);
    const right = formOf(b, sort.propertyName, sort.kind);
    if (left === right) return byId(a, b);
    if (left === undefined) return 1;
    if (right === undefined) return -1;
    return sign * (left < right ? -1 : 1);
  };
}
