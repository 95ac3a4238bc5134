import type { ProjectionQuery } from './search-projection';
import { ExpressionPlaceholders } from './core';

/**
 * The DynamoDB side of a search's pushdown: shared/search decides what may be pushed (its
 * semantics: which operators, which forms, which literal) and hands over a SearchFilterPlan; this
 * module turns it into the FilterExpression and projections of the projection Query, within
 * DynamoDB's limits. The projection items hold three maps of forms (shared/db/search-projection.ts
 * SearchForms): v (stored values), l (lower-cased where it differs) and n (order-preserving).
 */

/** The form a condition reads: n, v, or `lower`: l where the item has it, else v (a value already lower-case has no l form). */
export type ProjectionForm = 'n' | 'v' | 'lower';

/** One condition on one property's form; `not` negates any other. */
export type SearchCondition =
  | {
      test: '=' | '<' | '<=' | '>' | '>=' | 'begins_with' | 'contains';
      property: string;
      form: ProjectionForm;
      value: string;
    }
  | { test: 'between'; property: string; form: ProjectionForm; low: string; high: string }
  | { test: 'in'; property: string; form: ProjectionForm; values: readonly string[] }
  /** The property has a value (exists) or none (absent): its v form. */
  | { test: 'exists' | 'absent'; property: string }
  | { test: 'not'; condition: SearchCondition };

/** What a search asks of the projection Query. */
export interface SearchFilterPlan {
  /**
   * Any of these groups matches; a group matches when all its conditions do. A group without a
   * condition DynamoDB can check (or no group at all) lets every item through.
   */
  groups: readonly (readonly SearchCondition[])[];
  /** A literal that one of these properties' lower-cased forms contains (a search's `query`), checked beside the groups. */
  term?: { literal: string; properties: readonly string[] };
  /** Properties whose three forms the in-memory check reads back. */
  compared: readonly string[];
  /** The sort's property and form: read back too when not compared already. */
  sort: { property: string; form: ProjectionForm };
  /** Properties whose stored values (v forms) the first page of each shard brings as well. */
  shown: readonly string[];
}

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

const formNames = { '#v': 'v', '#l': 'l', '#n': 'n', '#sk': 'sk' } as const;
/** The forms read back for a sort of each form. */
const formsOfKind: Record<ProjectionForm, readonly ('v' | 'l' | 'n')[]> = { n: ['n'], v: ['v'], lower: ['l', 'v'] };

/**
 * The projection Query of a plan: the filter (a superset of the matches: a condition DynamoDB
 * cannot check, or a filter past 4 KB, lets items through for the in-memory check), the forms read
 * back, and the wider projection of each shard's first page. Each request gets only the
 * placeholders its expressions mention (DynamoDB rejects unused ones).
 */
export function projectionQueryFor(plan: SearchFilterPlan): ProjectionQuery {
  const placeholders = new ExpressionPlaceholders({ name: '#p', value: ':x' });
  const property = (name: string) => placeholders.name(name);
  /** `compare(path)` applied to the property's form; `lower` falls back to v where l is absent. */
  const onForm = (name: string, form: ProjectionForm, compare: (path: string) => string): string => {
    const ref = property(name);
    if (form === 'n') return compare(`#n.${ref}`);
    if (form === 'v') return compare(`#v.${ref}`);
    return `(${compare(`#l.${ref}`)} OR (attribute_not_exists(#l.${ref}) AND ${compare(`#v.${ref}`)}))`;
  };
  const render = (condition: SearchCondition): string | undefined => {
    switch (condition.test) {
      case 'not': {
        const inner = render(condition.condition);
        return inner === undefined ? undefined : `NOT ${wrap(inner)}`;
      }
      case 'exists':
        return `attribute_exists(#v.${property(condition.property)})`;
      case 'absent':
        return `attribute_not_exists(#v.${property(condition.property)})`;
      case 'between':
        // DynamoDB rejects BETWEEN with a low bound above the high one; nothing matches it anyway.
        if (condition.low > condition.high) return undefined;
        return onForm(
          condition.property,
          condition.form,
          (path) => `${path} BETWEEN ${placeholders.value(condition.low)} AND ${placeholders.value(condition.high)}`,
        );
      case 'in':
        if (condition.values.length > maxInOperands) return undefined;
        return onForm(
          condition.property,
          condition.form,
          (path) => `${path} IN (${condition.values.map((value) => placeholders.value(value)).join(', ')})`,
        );
      case 'begins_with':
      case 'contains':
        return onForm(
          condition.property,
          condition.form,
          (path) => `${condition.test}(${path}, ${placeholders.value(condition.value)})`,
        );
      default:
        return onForm(
          condition.property,
          condition.form,
          (path) => `${path} ${condition.test} ${placeholders.value(condition.value)}`,
        );
    }
  };

  const groupExpressions: string[] = [];
  let isUnconstrained = plan.groups.length === 0;
  for (const group of plan.groups) {
    const parts = group.map(render).filter((part): part is string => part !== undefined);
    if (parts.length === 0) {
      isUnconstrained = true;
      break;
    }
    groupExpressions.push(parts.length === 1 ? (parts[0] ?? '') : `(${parts.join(' AND ')})`);
  }
  const clauses: string[] = [];
  if (!isUnconstrained)
    clauses.push(groupExpressions.length === 1 ? (groupExpressions[0] ?? '') : `(${groupExpressions.join(' OR ')})`);
  if (plan.term) {
    const ref = placeholders.value(plan.term.literal);
    clauses.push(
      `(${plan.term.properties.map((name) => onForm(name, 'lower', (path) => `contains(${path}, ${ref})`)).join(' OR ')})`,
    );
  }
  let filter = clauses.join(' AND ');
  if (filter.length > maxExpressionChars) filter = '';

  const compared = [
    ...plan.compared.flatMap((name) => {
      const ref = property(name);
      return [`#v.${ref}`, `#l.${ref}`, `#n.${ref}`];
    }),
    ...(plan.compared.includes(plan.sort.property)
      ? []
      : formsOfKind[plan.sort.form].map((form) => `#${form}.${property(plan.sort.property)}`)),
  ];
  const projection = ['#sk', ...compared].join(', ');
  const comparedPaths = new Set(compared);
  const shownPaths = plan.shown.map((name) => `#v.${property(name)}`).filter((path) => !comparedPaths.has(path));
  let firstPageProjection = [projection, ...shownPaths].join(', ');
  // Very many shown properties: the whole value map is shorter to ask for.
  if (firstPageProjection.length > maxExpressionChars)
    firstPageProjection = ['#sk', '#v', ...compared.filter((path) => !path.startsWith('#v.'))].join(', ');

  const names: Record<string, string> = { ...formNames, ...placeholders.names };
  const isUsedIn =
    (expressions: string) =>
    ([placeholder]: [string, unknown]) =>
      new RegExp(`${placeholder}(?![0-9])`).test(expressions);
  const namesUsedBy = (expressions: string): Record<string, string> =>
    Object.fromEntries(Object.entries(names).filter(isUsedIn(expressions)));
  return {
    ...(filter ? { filterExpression: filter } : {}),
    projectionExpression: projection,
    names: namesUsedBy(`${filter} ${projection}`),
    values: Object.fromEntries(Object.entries(placeholders.values).filter(isUsedIn(filter))),
    firstPage: { projectionExpression: firstPageProjection, names: namesUsedBy(`${filter} ${firstPageProjection}`) },
  };
}
