import type { ProjectionQuery } from '../db/search-projection';
import { projectionQueryFor, type SearchCondition, type SearchFilterPlan } from '../db/search-filters';
import type { CompiledFilter, CompiledSearch } from './search-request';

/**
 * The longest literal a pushed `contains` carries. Finding a literal of m characters in a value of
 * n may cost n x m (DynamoDB Local's does: 18 pushed literals of 150 characters over 64 KiB names
 * took it seconds a search); a piece of the literal is as necessary a condition, and a short one
 * keeps that cost linear in the value.
 */
const maxContainsLiteral = 64;

const longestLiteral = (pattern: string): string =>
  pattern.split('*').reduce((longest, piece) => (piece.length > longest.length ? piece : longest), '');
/** A necessary `contains` literal: the literal itself, or its first maxContainsLiteral characters (a match holds those too). */
const containsLiteral = (literal: string): string => literal.slice(0, maxContainsLiteral);

/**
 * What DynamoDB can check of one filter, exactly or as a necessary condition; undefined when it
 * can check nothing of it. Each filter DynamoDB can evaluate exactly is pushed as it is; string
 * ranges are not (strings compare as UTF-8 bytes in DynamoDB and as UTF-16 units in memory: only
 * n forms, hex, are ordered alike); CONTAINS_TOKEN becomes a looser `contains` on (the first 64
 * characters of) its longest literal; NOT_CONTAINS_TOKEN leaves out the records whose whole value
 * matches its pattern when DynamoDB can tell (patterns `lit`, `lit*`, `*lit*`, `*`).
 */
function conditionOf(filter: CompiledFilter): SearchCondition | undefined {
  const { propertyName: property, kind: form } = filter;
  const value = filter.value ?? '';
  const isOrdered = form === 'n';
  switch (filter.operator) {
    case 'EQ':
      return { test: '=', property, form, value };
    case 'NEQ':
      return { test: 'not', condition: { test: '=', property, form, value } };
    case 'LT':
      return isOrdered ? { test: '<', property, form, value } : undefined;
    case 'LTE':
      return isOrdered ? { test: '<=', property, form, value } : undefined;
    case 'GT':
      return isOrdered ? { test: '>', property, form, value } : undefined;
    case 'GTE':
      return isOrdered ? { test: '>=', property, form, value } : undefined;
    case 'BETWEEN':
      return isOrdered ? { test: 'between', property, form, low: value, high: filter.highValue ?? '' } : undefined;
    case 'IN':
      return { test: 'in', property, form, values: filter.values ?? [] };
    case 'NOT_IN':
      return { test: 'not', condition: { test: 'in', property, form, values: filter.values ?? [] } };
    case 'HAS_PROPERTY':
      return { test: 'exists', property };
    case 'NOT_HAS_PROPERTY':
      return { test: 'absent', property };
    case 'CONTAINS_TOKEN': {
      const literal = longestLiteral(value);
      if (literal === '') return { test: 'exists', property };
      return { test: 'contains', property, form: form === 'n' ? 'v' : form, value: containsLiteral(literal) };
    }
    case 'NOT_CONTAINS_TOKEN': {
      // The whole value is one of its tokens: a record whose whole value matches the pattern
      // never matches, and DynamoDB can tell that for three shapes of pattern (`lit`, `lit*`,
      // `*lit*`; `*` alone matches any value). Other records come back and are matched in memory.
      const tokenForm = form === 'n' ? 'v' : form;
      const pieces = value.split('*');
      const literals = pieces.filter((piece) => piece !== '');
      if (pieces.length > 1 && literals.length === 0) return { test: 'absent', property };
      const [literal] = literals;
      if (literal === undefined || literals.length > 1) return undefined;
      const isWhole = pieces.length === 1;
      const isPrefix = !isWhole && pieces[0] === literal;
      const isInfix = !isWhole && pieces[0] === '' && pieces.at(-1) === '';
      if (isWhole) return { test: 'not', condition: { test: '=', property, form: tokenForm, value: literal } };
      if (isPrefix)
        return { test: 'not', condition: { test: 'begins_with', property, form: tokenForm, value: literal } };
      // A piece of the literal would not do here (it would leave out records the whole literal does not): a long one is not pushed.
      if (isInfix && literal.length <= maxContainsLiteral)
        return { test: 'not', condition: { test: 'contains', property, form: tokenForm, value: literal } };
      return undefined;
    }
    // The list filters' operators (search-request.ts internalMatchOperators) are matched in memory only.
    case 'STARTS_WITH':
    case 'ENDS_WITH':
    case 'CONTAINS':
    case 'NOT_CONTAINS':
    case 'NOT_BETWEEN':
    case 'CONTAINS_ANY':
    case 'CONTAINS_NONE':
    case 'CONTAINS_ALL':
    case 'NOT_CONTAINS_ALL':
    case 'SET_EQ':
    case 'SET_NEQ':
      return undefined;
  }
}

/**
 * What a search asks of the projection Query (shared/db/search-filters.ts builds it). The filter
 * is a superset of the matches: the search evaluates every filter again in memory on what comes
 * back (match-search.ts), so the answer never depends on what was pushed down. Only the forms the
 * in-memory check and the sort read come back (the sort alone needs only its kind's form). The
 * first page of each shard also brings the values the answer shows: a small account's search is
 * then done in one read; for a large one, the later pages (most of the account) come back without
 * them and the page's missing values are read by key afterwards (readSearchValues), so a search
 * that keeps 100 of 100k matches does not carry every match's values.
 */
export function searchFilterPlanOf(search: CompiledSearch): SearchFilterPlan {
  const term = search.queryTerms.reduce(
    (longest, candidate) => (candidate.length > longest.length ? candidate : longest),
    '',
  );
  return {
    groups: search.groups.map((group) =>
      group.map(conditionOf).filter((condition): condition is SearchCondition => condition !== undefined),
    ),
    ...(term === '' ? {} : { term: { literal: containsLiteral(term), properties: search.searched.queryProperties } }),
    compared: [
      ...new Set([
        ...search.groups.flat().map((entry) => entry.propertyName),
        ...(search.queryTerms.length > 0 ? search.searched.queryProperties : []),
      ]),
    ],
    sort: { property: search.sort.propertyName, form: search.sort.kind },
    shown: [
      ...new Set([
        'createdate',
        search.searched.modifiedProperty,
        ...(search.properties ?? search.searched.defaultProperties),
      ]),
    ],
  };
}

/** The Query that reads the projection for a search. */
export function projectionQueryOf(search: CompiledSearch): ProjectionQuery {
  return projectionQueryFor(searchFilterPlanOf(search));
}
