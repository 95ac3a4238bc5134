/**
 * A list's compiled filters (list-filters.ts compiles them) and their match against a record's
 * search forms, with the search's own matcher (match-search.ts compileFilterMatch): what a record
 * write and a list's evaluation need, without the compile's checks.
 */
import type { SearchForms } from '../records/search-forms';
import { sortableNumber } from '../records/search-forms';
import { compileFilterMatch, type FilterMatch, type TokenCache } from '../search/match-search';
import type { CompiledFilter, FormKind, MatchOperator } from '../search/search-request';
/** A calendar offset of a time point (PublicIndexOffset); each field an integer. */
export interface TimeOffset {
  years?: number;
  quarters?: number;
  months?: number;
  weeks?: number;
  days?: number;
  hours?: number;
  minutes?: number;
  seconds?: number;
  milliseconds?: number;
}

/** An instant relative to the evaluation time: now, or today at a time of day, in a time zone, then offset. */
export interface RelativeInstant {
  reference: 'NOW' | 'TODAY';
  zoneId: string;
  /** TODAY's time of day (midnight when absent). */
  time?: { hour: number; minute: number; second: number; millisecond: number };
  offset?: TimeOffset;
}

/**
 * What a leaf compares with: a compared string (lower-cased for case-insensitive properties), a
 * number (a number property's value, a date's epoch milliseconds), or an instant relative to now.
 */
export type ListFilterOperand = string | number | RelativeInstant;

/** One compiled PROPERTY filter: the search's compiled filter, its operands not yet in compared form. */
export interface ListFilterLeaf {
  type: 'FILTER';
  propertyName: string;
  kind: FormKind;
  operator: MatchOperator;
  value?: ListFilterOperand;
  highValue?: ListFilterOperand;
  values?: string[];
  /**
   * The answer for a record without a value: includeObjectsWithNoValueSet (IS_UNKNOWN answers true
   * whatever it says); a record with a value gets the operator's answer.
   */
  whenUnset: boolean;
}

/** One compiled IN_LIST filter: whether the record is (isIn) or is not a member of another list of its type. */
export interface ListMembershipLeaf {
  type: 'IN_LIST';
  listId: string;
  isIn: boolean;
}

export interface ListFilterNode {
  type: 'OR' | 'AND' | 'NOT_ALL' | 'NOT_ANY';
  /** The branch's filters, then its sub-branches. */
  branches: ListFilterTree[];
}

/** A list's filters compiled to compared forms: JSON-serializable (stored on the list item), evaluated with no property lookups. */
export type ListFilterTree = ListFilterNode | ListFilterLeaf | ListMembershipLeaf;

/** Whether the record being matched is a member of a list (what an IN_LIST filter asks). */
export type MemberOf = (listId: string) => boolean;

/** For a tree with no IN_LIST filter. */
const memberOfNone: MemberOf = () => false;

/** The ids of the lists a tree's IN_LIST filters name, each once, in the order first named. */
export function listIdsOfTree(tree: ListFilterTree): string[] {
  const ids = new Set<string>();
  // An explicit stack: the compile bounds the tree's size, and no depth reaches the call stack.
  const stack: ListFilterTree[] = [tree];
  while (stack.length > 0) {
    const node = stack.pop() as ListFilterTree;
    if (node.type === 'IN_LIST') ids.add(node.listId);
    else if (node.type !== 'FILTER')
      for (let index = node.branches.length - 1; index >= 0; index -= 1)
        stack.push(node.branches[index] as ListFilterTree);
  }
  return [...ids];
}

export const zoneFormats = new Map<string, Intl.DateTimeFormat>();

/** The zone's formatter; undefined for a zone Intl does not know. */
export function zoneFormatOf(zoneId: string): Intl.DateTimeFormat | undefined {
  let format = zoneFormats.get(zoneId);
  if (format) return format;
  if (zoneId.length > 64) return undefined;
  try {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zoneId,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
  } catch {
    return undefined;
  }
  zoneFormats.set(zoneId, format);
  return format;
}

export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

export function wallClockOf(zoneId: string, ms: number): WallClock {
  const format = zoneFormatOf(zoneId) ?? zoneFormatOf('UTC');
  const parts: Record<string, number> = {};
  let isBeforeCommonEra = false;
  for (const part of format?.formatToParts(ms) ?? []) {
    if (part.type === 'era') isBeforeCommonEra = part.value.startsWith('B');
    else if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const year = parts.year ?? 1970;
  return {
    // Year 1 BC is year 0.
    year: isBeforeCommonEra ? 1 - year : year,
    month: parts.month ?? 1,
    day: parts.day ?? 1,
    hour: parts.hour ?? 0,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
    millisecond: ((ms % 1000) + 1000) % 1000,
  };
}

/** The UTC instant of a wall clock reading; fields past their range carry over (day 32 of January is February 1st). */
export function utcOf(clock: WallClock): number {
  // setUTCFullYear, unlike Date.UTC, reads years 0 to 99 as themselves, not as 1900 to 1999.
  const date = new Date(0);
  date.setUTCFullYear(clock.year, clock.month - 1, clock.day);
  date.setUTCHours(clock.hour, clock.minute, clock.second, clock.millisecond);
  return date.getTime();
}

export const midnightOf = (year: number, month: number, day: number): WallClock => ({
  year,
  month,
  day,
  hour: 0,
  minute: 0,
  second: 0,
  millisecond: 0,
});

/** The instant a wall clock reading names in the zone (the earlier one in a repeated hour). */
export function instantOfWallClock(zoneId: string, clock: WallClock): number {
  const guess = utcOf(clock);
  const offsetAt = (ms: number) => utcOf(wallClockOf(zoneId, ms)) - ms;
  const first = guess - offsetAt(guess);
  return guess - offsetAt(first);
}

/** The instant a relative operand names at `nowMs`. */
export function instantAt(operand: RelativeInstant, nowMs: number): number {
  const clock = wallClockOf(operand.zoneId, nowMs);
  if (operand.reference === 'TODAY') {
    clock.hour = operand.time?.hour ?? 0;
    clock.minute = operand.time?.minute ?? 0;
    clock.second = operand.time?.second ?? 0;
    clock.millisecond = operand.time?.millisecond ?? 0;
  }
  const offset = operand.offset ?? {};
  const months = (offset.years ?? 0) * 12 + (offset.quarters ?? 0) * 3 + (offset.months ?? 0);
  if (months !== 0) {
    const total = clock.year * 12 + (clock.month - 1) + months;
    clock.year = Math.floor(total / 12);
    clock.month = total - clock.year * 12 + 1;
    // The 31st a month later is that month's last day.
    clock.day = Math.min(clock.day, new Date(utcOf(midnightOf(clock.year, clock.month + 1, 0))).getUTCDate());
  }
  clock.day += (offset.weeks ?? 0) * 7 + (offset.days ?? 0);
  const normalized = new Date(utcOf(clock));
  const local = {
    ...clock,
    year: normalized.getUTCFullYear(),
    month: normalized.getUTCMonth() + 1,
    day: normalized.getUTCDate(),
  };
  return (
    instantOfWallClock(operand.zoneId, local) +
    (offset.hours ?? 0) * 3_600_000 +
    (offset.minutes ?? 0) * 60_000 +
    (offset.seconds ?? 0) * 1000 +
    (offset.milliseconds ?? 0)
  );
}

export const isRelative = (operand: ListFilterOperand | undefined): operand is RelativeInstant =>
  typeof operand === 'object' && operand !== null;

export const numberOf = (operand: ListFilterOperand, nowMs: number): number =>
  isRelative(operand) ? instantAt(operand, nowMs) : Number(operand);

/** The search's compiled filter of a leaf at `nowMs`: operands in the compared form of the leaf's kind. */
export function compiledFilterOf(leaf: ListFilterLeaf, nowMs: number): CompiledFilter {
  const formOf = (operand: ListFilterOperand | undefined): string | undefined => {
    if (operand === undefined) return undefined;
    if (leaf.kind === 'n') return sortableNumber(numberOf(operand, nowMs));
    return String(operand);
  };
  const filter: CompiledFilter = { propertyName: leaf.propertyName, operator: leaf.operator, kind: leaf.kind };
  const value = formOf(leaf.value);
  const highValue = formOf(leaf.highValue);
  if (value !== undefined) filter.value = value;
  if (highValue !== undefined) filter.highValue = highValue;
  if (leaf.values) filter.values = [...leaf.values];
  return filter;
}

type TreeMatch = (forms: SearchForms, cache: TokenCache, memberOf: MemberOf) => boolean;

// Recursive over the tree: compileListFilters bounds its depth (listFilterLimits.depth, plus one for a time range).
function compileTreeMatch(tree: ListFilterTree, nowMs: number): TreeMatch {
  if (tree.type === 'FILTER') {
    const matches: FilterMatch = compileFilterMatch(compiledFilterOf(tree, nowMs));
    const { propertyName, whenUnset } = tree;
    return (forms, cache) => (forms.v[propertyName] === undefined ? whenUnset : matches(forms, cache));
  }
  if (tree.type === 'IN_LIST') {
    const { listId, isIn } = tree;
    return (_forms, _cache, memberOf) => memberOf(listId) === isIn;
  }
  const children = tree.branches.map((branch) => compileTreeMatch(branch, nowMs));
  switch (tree.type) {
    case 'AND':
      return (forms, cache, memberOf) => children.every((matches) => matches(forms, cache, memberOf));
    case 'OR':
      return (forms, cache, memberOf) => children.some((matches) => matches(forms, cache, memberOf));
    case 'NOT_ALL':
      return (forms, cache, memberOf) => !children.every((matches) => matches(forms, cache, memberOf));
    case 'NOT_ANY':
      return (forms, cache, memberOf) => !children.some((matches) => matches(forms, cache, memberOf));
  }
}

/**
 * Whether a record's search forms (and, for IN_LIST filters, its memberships: `memberOf`) match the
 * tree, at `nowMs` for relative dates. Time linear in the record's values times the filters.
 */
export function listFilterMatcher(
  tree: ListFilterTree,
  nowMs: number = Date.now(),
): (forms: SearchForms, memberOf?: MemberOf) => boolean {
  const matches = compileTreeMatch(tree, nowMs);
  return (forms, memberOf = memberOfNone) => matches(forms, new Map(), memberOf);
}
