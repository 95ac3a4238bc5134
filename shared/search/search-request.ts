import type { ObjectType } from '../objects/object-types';
import { compactJsonLength } from '../base/compact-json-length';
import { ValidationError } from '../base/errors';
import type { PropertyRules } from '../properties/property-definition';
import type { PropertyLookup } from '../properties/validate-property-values';
import { parseSearchInstant, parseSearchNumber, sortableNumber } from '../records/search-forms';

export const searchOperators = [
  'EQ',
  'NEQ',
  'LT',
  'LTE',
  'GT',
  'GTE',
  'BETWEEN',
  'IN',
  'NOT_IN',
  'HAS_PROPERTY',
  'NOT_HAS_PROPERTY',
  'CONTAINS_TOKEN',
  'NOT_CONTAINS_TOKEN',
] as const;
export type SearchOperator = (typeof searchOperators)[number];

/**
 * Operators the matcher (match-search.ts) evaluates beyond the search API's, for list filters
 * (shared/lists/list-filters.ts); the search's input validation accepts only searchOperators.
 *   STARTS_WITH, ENDS_WITH, CONTAINS (a substring): the compared text against any of `values`;
 *   NOT_CONTAINS: none of `values` is a substring (a record without a value passes, as for NOT_IN);
 *   NOT_BETWEEN: below `value` or above `highValue` (a record without a value passes);
 *   CONTAINS_ANY, CONTAINS_NONE, CONTAINS_ALL, NOT_CONTAINS_ALL, SET_EQ, SET_NEQ: the stored value
 *   read as the options of a multiple-checkbox enumeration (split at ';') against the set `values`
 *   (the negative ones pass a record without a value).
 */
export const internalMatchOperators = [
  'STARTS_WITH',
  'ENDS_WITH',
  'CONTAINS',
  'NOT_CONTAINS',
  'NOT_BETWEEN',
  'CONTAINS_ANY',
  'CONTAINS_NONE',
  'CONTAINS_ALL',
  'NOT_CONTAINS_ALL',
  'SET_EQ',
  'SET_NEQ',
] as const;
export type InternalMatchOperator = (typeof internalMatchOperators)[number];
export type MatchOperator = SearchOperator | InternalMatchOperator;

/** A filter as clients send it (PublicObjectSearchRequest); loose clients send numbers and booleans. */
export interface FilterInput {
  propertyName: string;
  operator: SearchOperator;
  value?: string | number | boolean;
  highValue?: string | number | boolean;
  values?: readonly (string | number | boolean)[];
}

export interface SearchInput {
  filterGroups?: readonly { filters: readonly FilterInput[] }[];
  sorts?: readonly (string | { propertyName: string; direction?: 'ASCENDING' | 'DESCENDING' })[];
  query?: string;
  properties?: readonly string[];
  limit?: number;
  after?: string | number;
}

/** Search guide, "Limits". */
export const searchLimits = {
  groups: 5,
  filtersPerGroup: 6,
  filters: 18,
  maxLimit: 200,
  defaultLimit: 10,
  maxResults: 10_000,
  maxBodyChars: 3000,
} as const;
/**
 * Which form of a value a property's type compares (see shared/records/search-forms.ts): numbers and instants
 * by n, enumerations and bools exactly by v, other strings case-insensitively (l, else v).
 */
export type SearchedType = Pick<ObjectType, 'singular' | 'queryProperties' | 'defaultProperties' | 'modifiedProperty'>;

export type FormKind = 'n' | 'v' | 'lower';

export function formKindOf(definition: PropertyRules): FormKind {
  switch (definition.type) {
    case 'number':
    case 'date':
    case 'datetime':
      return 'n';
    case 'enumeration':
    case 'bool':
      return 'v';
    default:
      return 'lower';
  }
}

/** A filter with its values already in the form it compares against. */
export interface CompiledFilter {
  propertyName: string;
  operator: MatchOperator;
  kind: FormKind;
  /** EQ, NEQ, LT.., CONTAINS_TOKEN (pattern); BETWEEN and NOT_BETWEEN low. */
  value?: string;
  highValue?: string;
  values?: string[];
}

export interface CompiledSort {
  propertyName: string;
  kind: FormKind;
  isDescending: boolean;
}

export interface CompiledSearch {
  groups: CompiledFilter[][];
  /** Lower-cased terms; each must occur in one of the query properties. */
  queryTerms: string[];
  /** What the search needs of the searched type: where the terms are looked for, what a result shows by default. */
  searched: SearchedType;
  sort: CompiledSort;
  offset: number;
  limit: number;
  properties?: string[];
}

const badRequest = (message: string, field: string, value: string): ValidationError =>
  new ValidationError(message, { context: { [field]: [value] } });

/** The compared form of one filter value, by the property's type. */
function formValue(raw: string | number | boolean, definition: PropertyRules, kind: FormKind, field: string): string {
  const text = String(raw);
  if (kind === 'lower') return text.toLowerCase();
  if (kind === 'v') return definition.type === 'bool' ? text.trim().toLowerCase() : text;
  const parsed = definition.type === 'number' ? parseSearchNumber(text) : parseSearchInstant(text);
  if (parsed === undefined) {
    throw badRequest(
      definition.type === 'number'
        ? `${field}: ${JSON.stringify(text)} is not a number (property ${definition.name} is a number)`
        : `${field}: ${JSON.stringify(text)} is not a date; use ISO 8601 or epoch milliseconds (property ${definition.name} is a ${definition.type})`,
      field,
      text,
    );
  }
  return sortableNumber(parsed);
}

/** How an error names the searched type's properties: `contact`, `line item`, a custom type's name. */
export const propertyNoun = (searched: SearchedType): string => `${searched.singular.replaceAll('_', ' ')} property`;

function compileFilter(
  filter: FilterInput,
  lookup: PropertyLookup,
  field: string,
  searched: SearchedType,
): CompiledFilter {
  const definition = lookup.find(filter.propertyName);
  if (!definition) {
    throw new ValidationError(
      `${field}.propertyName: there is no ${propertyNoun(searched)} named ${JSON.stringify(filter.propertyName)}`,
      {
        context: { propertyName: [filter.propertyName] },
        errors: [
          {
            message: `Property ${filter.propertyName} does not exist`,
            code: 'PROPERTY_DOESNT_EXIST',
            in: `${field}.propertyName`,
            context: { propertyName: [filter.propertyName] },
          },
        ],
      },
    );
  }
  const kind = formKindOf(definition);
  const compiled: CompiledFilter = { propertyName: definition.name, operator: filter.operator, kind };
  const requireValue = (name: 'value' | 'highValue'): string | number | boolean => {
    const raw = filter[name];
    if (raw === undefined)
      throw badRequest(`${field}.${name} is required for operator ${filter.operator}`, `${field}.${name}`, 'missing');
    return raw;
  };
  switch (filter.operator) {
    case 'HAS_PROPERTY':
    case 'NOT_HAS_PROPERTY':
      break;
    case 'IN':
    case 'NOT_IN':
      if (!filter.values || filter.values.length === 0)
        throw badRequest(
          `${field}.values must list at least one value for operator ${filter.operator}`,
          `${field}.values`,
          'missing',
        );
      compiled.values = [...new Set(filter.values.map((raw) => formValue(raw, definition, kind, `${field}.values`)))];
      break;
    case 'BETWEEN':
      compiled.value = formValue(requireValue('value'), definition, kind, `${field}.value`);
      compiled.highValue = formValue(requireValue('highValue'), definition, kind, `${field}.highValue`);
      break;
    case 'CONTAINS_TOKEN':
    case 'NOT_CONTAINS_TOKEN': {
      // Tokens are matched on the compared text: lower-cased unless the type is case-sensitive.
      const text = String(requireValue('value'));
      compiled.value = kind === 'v' ? text : text.toLowerCase();
      break;
    }
    default:
      compiled.value = formValue(requireValue('value'), definition, kind, `${field}.value`);
  }
  return compiled;
}

function compileSort(sorts: SearchInput['sorts'], lookup: PropertyLookup, searched: SearchedType): CompiledSort {
  if (!sorts || sorts.length === 0) return { propertyName: 'createdate', kind: 'n', isDescending: false };
  if (sorts.length > 1)
    throw badRequest('Only one sorting rule can be applied to a search', 'sorts', String(sorts.length));
  const [sort] = sorts;
  const { propertyName, isDescending } =
    typeof sort === 'string'
      ? { propertyName: sort.startsWith('-') ? sort.slice(1) : sort, isDescending: sort.startsWith('-') }
      : { propertyName: sort?.propertyName ?? '', isDescending: sort?.direction === 'DESCENDING' };
  const definition = lookup.find(propertyName);
  if (!definition)
    throw badRequest(
      `sorts[0]: there is no ${propertyNoun(searched)} named ${JSON.stringify(propertyName)}`,
      'sorts',
      propertyName,
    );
  return { propertyName: definition.name, kind: formKindOf(definition), isDescending };
}

function parseAfter(after: SearchInput['after']): number {
  if (after === undefined || after === '') return 0;
  const text = String(after);
  if (!/^\d{1,9}$/.test(text))
    throw badRequest(
      'after must be the paging.next.after value of a previous answer (a non-negative integer)',
      'after',
      text,
    );
  const offset = Number(text);
  if (offset >= searchLimits.maxResults) {
    throw badRequest(
      `A search can page through at most ${searchLimits.maxResults} results; after ${offset} is beyond that`,
      'after',
      text,
    );
  }
  return offset;
}

/** Every property name the search reads from records: filters, sort and the query fields. */
export function searchPropertyNames(input: SearchInput): string[] {
  const names = new Set<string>();
  for (const group of input.filterGroups ?? []) for (const filter of group.filters) names.add(filter.propertyName);
  for (const sort of input.sorts ?? [])
    names.add(typeof sort === 'string' ? sort.replace(/^-/, '') : sort.propertyName);
  return [...names];
}

/**
 * Filter groups in compared forms, without the search's limits on their number (compileSearch checks
 * those first): list filters (shared/lists/list-filters.ts searchGroupsOf) are matched this way.
 * A group without filters matches every record (an empty AND), so the whole OR does.
 */
export function compileFilterGroups(
  groups: readonly { filters: readonly FilterInput[] }[],
  lookup: PropertyLookup,
  searched: SearchedType,
): CompiledFilter[][] {
  return groups.map((group, groupIndex) =>
    group.filters.map((filter, filterIndex) =>
      compileFilter(filter, lookup, `filterGroups[${groupIndex}].filters[${filterIndex}]`, searched),
    ),
  );
}

/** Checks the request against the documented limits and turns it into compared forms. */
export function compileSearch(input: SearchInput, lookup: PropertyLookup, searched: SearchedType): CompiledSearch {
  // Counted without recursion: JSON.stringify overflowed the stack on a body nested 5,000 levels deep (a 500).
  const bodyChars = compactJsonLength(input, searchLimits.maxBodyChars);
  if (bodyChars > searchLimits.maxBodyChars) {
    throw badRequest(
      `The search request is over ${searchLimits.maxBodyChars} characters (as compact JSON); at most ${searchLimits.maxBodyChars} are allowed`,
      'body',
      `more than ${searchLimits.maxBodyChars}`,
    );
  }
  const groups = input.filterGroups ?? [];
  if (groups.length > searchLimits.groups) {
    throw badRequest(
      `A search may have at most ${searchLimits.groups} filterGroups; this one has ${groups.length}`,
      'filterGroups',
      String(groups.length),
    );
  }
  groups.forEach((group, index) => {
    if (group.filters.length > searchLimits.filtersPerGroup) {
      throw badRequest(
        `A filterGroup may have at most ${searchLimits.filtersPerGroup} filters; filterGroups[${index}] has ${group.filters.length}`,
        `filterGroups[${index}].filters`,
        String(group.filters.length),
      );
    }
  });
  const filterCount = groups.reduce((sum, group) => sum + group.filters.length, 0);
  if (filterCount > searchLimits.filters) {
    throw badRequest(
      `A search may have at most ${searchLimits.filters} filters in all; this one has ${filterCount}`,
      'filterGroups',
      String(filterCount),
    );
  }
  const limit = input.limit ?? searchLimits.defaultLimit;
  if (!Number.isInteger(limit) || limit < 1 || limit > searchLimits.maxLimit) {
    throw badRequest(`limit must be between 1 and ${searchLimits.maxLimit}`, 'limit', String(limit));
  }
  return {
    searched,
    groups: compileFilterGroups(groups, lookup, searched),
    queryTerms: (input.query ?? '')
      .toLowerCase()
      .split(/\s+/)
      .filter((term) => term !== ''),
    sort: compileSort(input.sorts, lookup, searched),
    offset: parseAfter(input.after),
    limit,
    properties: input.properties && input.properties.length > 0 ? [...new Set(input.properties)] : undefined,
  };
}
