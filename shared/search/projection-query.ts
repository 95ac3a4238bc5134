import type { ProjectionQuery } from '../db/company-search';
import { defaultCompanyPropertyNames } from '../properties/company-property-catalog';
import { queryPropertyNames, type CompiledFilter, type CompiledSearch, type FormKind } from './search-request';

/** DynamoDB caps every expression at 4 KB; past that the search filters in memory alone. */
const maxExpressionChars = 4000;
/** DynamoDB's IN takes at most 100 operands. */
const maxInOperands = 100;
/**
 * The longest literal a pushed `contains` carries. Finding a literal of m characters in a value of
 * n may cost n x m (DynamoDB Local's does: 18 pushed literals of 150 characters over 64 KiB names
 * took it seconds a search); a piece of the literal is as necessary a condition, and a short one
 * keeps that cost linear in the value.
 */
const maxContainsLiteral = 64;

/** True when the whole expression sits in one pair of parentheses (DynamoDB rejects a second pair). */
function isWrapped(expression: string): boolean {
  if (!expression.startsWith('(')) return false;
  let depth = 0;
  for (let index = 0; index < expression.length; index += 1) {
    if (expression[index] === '(') depth += 1;
    else if (expression[index] === ')') depth -= 1;
    if (depth === 0) return index === expression.length - 1;
  }
  return false;
}

const wrap = (expression: string): string => (isWrapped(expression) ? expression : `(${expression})`);

/**
 * Builds the Query that reads the projection for a search. Each filter DynamoDB can evaluate
 * exactly becomes part of the FilterExpression; the others (string ranges) become "true",
 * CONTAINS_TOKEN and `query` become a looser `contains` on (the first 64 characters of) their longest literal, and
 * NOT_CONTAINS_TOKEN leaves out the records whose whole value matches its pattern when DynamoDB
 * can tell (patterns `lit`, `lit*`, `*lit*`, `*`).
 * The result is a superset of the matches: the search evaluates every filter again in memory on
 * what comes back (match-search.ts), so the answer never depends on what was pushed down.
 */
export function projectionQueryOf(search: CompiledSearch): ProjectionQuery {
  const names: Record<string, string> = { '#v': 'v', '#l': 'l', '#n': 'n', '#sk': 'sk' };
  const values: Record<string, unknown> = {};
  const nameOf = new Map<string, string>();
  const propertyRef = (propertyName: string): string => {
    let ref = nameOf.get(propertyName);
    if (!ref) {
      ref = `#p${nameOf.size}`;
      nameOf.set(propertyName, ref);
      names[ref] = propertyName;
    }
    return ref;
  };
  const valueRef = (value: string): string => {
    const ref = `:x${Object.keys(values).length}`;
    values[ref] = value;
    return ref;
  };
  /** `compare(path)` applied to the form of the property's kind; case-insensitive strings fall back to v where l is absent. */
  const onForm = (propertyName: string, kind: FormKind, compare: (path: string) => string): string => {
    const ref = propertyRef(propertyName);
    if (kind === 'n') return compare(`#n.${ref}`);
    if (kind === 'v') return compare(`#v.${ref}`);
    return `(${compare(`#l.${ref}`)} OR (attribute_not_exists(#l.${ref}) AND ${compare(`#v.${ref}`)}))`;
  };
  const longestLiteral = (pattern: string): string => pattern.split('*').reduce((longest, piece) => (piece.length > longest.length ? piece : longest), '');
  /** A necessary `contains` literal: the literal itself, or its first maxContainsLiteral characters (a match holds those too). */
  const containsLiteral = (literal: string): string => literal.slice(0, maxContainsLiteral);

  const filterExpression = (filter: CompiledFilter): string | undefined => {
    const { propertyName, kind } = filter;
    const wanted = filter.value ?? '';
    const isOrdered = kind === 'n';
    switch (filter.operator) {
      case 'EQ': return onForm(propertyName, kind, (path) => `${path} = ${valueRef(wanted)}`);
      case 'NEQ': return `NOT ${wrap(onForm(propertyName, kind, (path) => `${path} = ${valueRef(wanted)}`))}`;
      // Strings compare as UTF-8 bytes in DynamoDB and as UTF-16 units in memory: only n forms (hex) are ordered alike.
      case 'LT': return isOrdered ? onForm(propertyName, kind, (path) => `${path} < ${valueRef(wanted)}`) : undefined;
      case 'LTE': return isOrdered ? onForm(propertyName, kind, (path) => `${path} <= ${valueRef(wanted)}`) : undefined;
      case 'GT': return isOrdered ? onForm(propertyName, kind, (path) => `${path} > ${valueRef(wanted)}`) : undefined;
      case 'GTE': return isOrdered ? onForm(propertyName, kind, (path) => `${path} >= ${valueRef(wanted)}`) : undefined;
      case 'BETWEEN': {
        const high = filter.highValue ?? '';
        // DynamoDB rejects BETWEEN with a low bound above the high one; nothing matches it anyway.
        if (!isOrdered || wanted > high) return undefined;
        return onForm(propertyName, kind, (path) => `${path} BETWEEN ${valueRef(wanted)} AND ${valueRef(high)}`);
      }
      case 'IN': case 'NOT_IN': {
        const listed = filter.values ?? [];
        if (listed.length > maxInOperands) return undefined;
        const inList = onForm(propertyName, kind, (path) => `${path} IN (${listed.map(valueRef).join(', ')})`);
        return filter.operator === 'IN' ? inList : `NOT ${wrap(inList)}`;
      }
      case 'HAS_PROPERTY': return `attribute_exists(#v.${propertyRef(propertyName)})`;
      case 'NOT_HAS_PROPERTY': return `attribute_not_exists(#v.${propertyRef(propertyName)})`;
      case 'CONTAINS_TOKEN': {
        const literal = longestLiteral(wanted);
        if (literal === '') return `attribute_exists(#v.${propertyRef(propertyName)})`;
        return onForm(propertyName, kind === 'n' ? 'v' : kind, (path) => `contains(${path}, ${valueRef(containsLiteral(literal))})`);
      }
      case 'NOT_CONTAINS_TOKEN': {
        // The whole value is one of its tokens: a record whose whole value matches the pattern
        // never matches, and DynamoDB can tell that for three shapes of pattern (`lit`, `lit*`,
        // `*lit*`; `*` alone matches any value). Other records come back and are matched in memory.
        const tokenForm = kind === 'n' ? 'v' : kind;
        const pieces = wanted.split('*');
        const literals = pieces.filter((piece) => piece !== '');
        if (pieces.length > 1 && literals.length === 0) return `attribute_not_exists(#v.${propertyRef(propertyName)})`;
        const [literal] = literals;
        if (literal === undefined || literals.length > 1) return undefined;
        const isWhole = pieces.length === 1;
        const isPrefix = !isWhole && pieces[0] === literal;
        const isInfix = !isWhole && pieces[0] === '' && pieces.at(-1) === '';
        if (isWhole) return `NOT ${wrap(onForm(propertyName, tokenForm, (path) => `${path} = ${valueRef(literal)}`))}`;
        if (isPrefix) return `NOT ${wrap(onForm(propertyName, tokenForm, (path) => `begins_with(${path}, ${valueRef(literal)})`))}`;
        // A piece of the literal would not do here (it would leave out records the whole literal does not): a long one is not pushed.
        if (isInfix && literal.length <= maxContainsLiteral) return `NOT ${wrap(onForm(propertyName, tokenForm, (path) => `contains(${path}, ${valueRef(literal)})`))}`;
        return undefined;
      }
    }
  };

  const groupExpressions: string[] = [];
  let isUnconstrained = search.groups.length === 0;
  for (const group of search.groups) {
    const parts = group.map(filterExpression).filter((part): part is string => part !== undefined);
    if (parts.length === 0) {
      isUnconstrained = true;
      break;
    }
    groupExpressions.push(parts.length === 1 ? (parts[0] ?? '') : `(${parts.join(' AND ')})`);
  }
  const clauses: string[] = [];
  if (!isUnconstrained) clauses.push(groupExpressions.length === 1 ? (groupExpressions[0] ?? '') : `(${groupExpressions.join(' OR ')})`);
  const term = search.queryTerms.reduce((longest, candidate) => (candidate.length > longest.length ? candidate : longest), '');
  if (term !== '') {
    const ref = valueRef(containsLiteral(term));
    clauses.push(`(${queryPropertyNames.map((name) => onForm(name, 'lower', (path) => `contains(${path}, ${ref})`)).join(' OR ')})`);
  }
  let filter = clauses.join(' AND ');
  if (filter.length > maxExpressionChars) filter = '';

  // Only the forms the in-memory check and the sort read come back (the sort alone needs only its
  // kind's form). The first page of each shard also brings the values the answer shows: a small
  // account's search is then done in one read; for a large one, the later pages (most of the
  // account) come back without them and the page's missing values are read by key afterwards
  // (readSearchValues), so a search that keeps 100 of 100k matches does not carry every match's values.
  const checked = new Set<string>([...search.groups.flat().map((entry) => entry.propertyName), ...(search.queryTerms.length > 0 ? queryPropertyNames : [])]);
  const formsOfKind: Record<FormKind, readonly ('v' | 'l' | 'n')[]> = { n: ['n'], v: ['v'], lower: ['l', 'v'] };
  const compared = [
    ...[...checked].flatMap((name) => {
      const ref = propertyRef(name);
      return [`#v.${ref}`, `#l.${ref}`, `#n.${ref}`];
    }),
    ...(checked.has(search.sort.propertyName) ? [] : formsOfKind[search.sort.kind].map((form) => `#${form}.${propertyRef(search.sort.propertyName)}`)),
  ];
  const projection = ['#sk', ...compared].join(', ');
  const comparedPaths = new Set(compared);
  const shownPaths = [...new Set(['createdate', 'hs_lastmodifieddate', ...(search.properties ?? defaultCompanyPropertyNames)])]
    .map((name) => `#v.${propertyRef(name)}`).filter((path) => !comparedPaths.has(path));
  let firstPageProjection = [projection, ...shownPaths].join(', ');
  // Very many requested properties: the whole value map is shorter to ask for.
  if (firstPageProjection.length > maxExpressionChars) firstPageProjection = ['#sk', '#v', ...compared.filter((path) => !path.startsWith('#v.'))].join(', ');

  // Unused names or values are an error in DynamoDB: each request gets only those its expressions mention.
  const namesUsedBy = (expressions: string): Record<string, string> => Object.fromEntries(Object.entries(names).filter(([ref]) => new RegExp(`${ref}(?![0-9])`).test(expressions)));
  const usedValues = Object.fromEntries(Object.entries(values).filter(([ref]) => new RegExp(`${ref}(?![0-9])`).test(filter)));
  return {
    ...(filter ? { filterExpression: filter } : {}), projectionExpression: projection, names: namesUsedBy(`${filter} ${projection}`), values: usedValues,
    firstPage: { projectionExpression: firstPageProjection, names: namesUsedBy(`${filter} ${firstPageProjection}`) },
  };
}
