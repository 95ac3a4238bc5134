import type { ProjectionQuery } from '../db/company-search';
import { queryPropertyNames, type CompiledFilter, type CompiledSearch, type FormKind } from './search-request';

/** DynamoDB caps every expression at 4 KB; past that the search filters in memory alone. */
const maxExpressionChars = 4000;
/** DynamoDB's IN takes at most 100 operands. */
const maxInOperands = 100;

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
 * exactly becomes part of the FilterExpression; the others (string ranges, NOT_CONTAINS_TOKEN)
 * become "true" and CONTAINS_TOKEN and `query` become a looser `contains` on their longest literal.
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
        return onForm(propertyName, kind === 'n' ? 'v' : kind, (path) => `contains(${path}, ${valueRef(literal)})`);
      }
      case 'NOT_CONTAINS_TOKEN': return undefined;
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
    const ref = valueRef(term);
    clauses.push(`(${queryPropertyNames.map((name) => onForm(name, 'lower', (path) => `contains(${path}, ${ref})`)).join(' OR ')})`);
  }
  let filter = clauses.join(' AND ');
  if (filter.length > maxExpressionChars) filter = '';

  // Only the forms the in-memory check and the sort read come back: the values the answer shows are
  // read afterwards for the page alone (readSearchValues), so a search that keeps few of many
  // matches does not carry every match's values back. The sort alone needs only its kind's form.
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

  // Unused names or values are an error in DynamoDB: keep only those the expressions mention.
  const used = `${filter} ${projection}`;
  const usedNames = Object.fromEntries(Object.entries(names).filter(([ref]) => new RegExp(`${ref}(?![0-9])`).test(used)));
  const usedValues = Object.fromEntries(Object.entries(values).filter(([ref]) => new RegExp(`${ref}(?![0-9])`).test(filter)));
  return { ...(filter ? { filterExpression: filter } : {}), projectionExpression: projection, names: usedNames, values: usedValues };
}
