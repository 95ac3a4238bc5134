import type { JournalFilter, JournalFilterCondition } from '../db/webhooks-journal';

const numberOf = (value: string): number | undefined => {
  if (value.trim() === '') return undefined;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : undefined;
};

/** -1, 0 or 1: as numbers when both sides are numbers, else as case-insensitive text. */
function compare(left: string, right: string): number {
  const a = numberOf(left);
  const b = numberOf(right);
  if (a !== undefined && b !== undefined) return Math.sign(a - b);
  const x = left.toLowerCase();
  const y = right.toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
}

/** One CRM_OBJECT_PROPERTY condition on the record's values (a missing property is the empty value). */
export function conditionHolds(condition: JournalFilterCondition, values: Readonly<Record<string, string>>): boolean {
  const actual = values[condition.property] ?? '';
  const expected = condition.value ?? '';
  const lowered = actual.toLowerCase();
  switch (condition.operator) {
    case 'IS_EMPTY':
      return actual === '';
    case 'IS_NOT_EMPTY':
      return actual !== '';
    case 'IN':
      return (condition.values ?? []).some((value) => compare(actual, value) === 0);
    case 'NOT_IN':
      return !(condition.values ?? []).some((value) => compare(actual, value) === 0);
    case 'EQ':
      return compare(actual, expected) === 0;
    case 'N_EQ':
      return compare(actual, expected) !== 0;
    case 'LT':
      return actual !== '' && compare(actual, expected) < 0;
    case 'LTE':
      return actual !== '' && compare(actual, expected) <= 0;
    case 'GT':
      return actual !== '' && compare(actual, expected) > 0;
    case 'GTE':
      return actual !== '' && compare(actual, expected) >= 0;
    case 'CONTAINS':
      return lowered.includes(expected.toLowerCase());
    case 'STARTS_WITH':
      return lowered.startsWith(expected.toLowerCase());
    case 'ENDS_WITH':
      return lowered.endsWith(expected.toLowerCase());
    default:
      return false;
  }
}

/**
 * Whether a subscription's filters take the record's values: no filter takes everything; else some
 * filter whose conditions all hold (a filter is an AND of its conditions, the filters an OR).
 * Conditions of another filterType than CRM_OBJECT_PROPERTY hold for nothing.
 */
export function matchesJournalFilters(
  filters: readonly JournalFilter[],
  values: Readonly<Record<string, string>>,
): boolean {
  if (filters.length === 0) return true;
  return filters.some((filter) =>
    filter.filter.conditions.every(
      (condition) => condition.filterType === 'CRM_OBJECT_PROPERTY' && conditionHolds(condition, values),
    ),
  );
}
