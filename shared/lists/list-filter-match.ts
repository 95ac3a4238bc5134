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

/**
 * One compiled ASSOCIATION filter (PublicAssociationInListFilter): how many of the record's
 * associated records, through one association type, are members of a list of their type. IN_LIST
 * holds when that count is within [min, max] (no max: no upper bound); NOT_IN_LIST when it is not.
 */
export interface AssociatedListLeaf {
  type: 'ASSOCIATED_IN_LIST';
  listId: string;
  /** The association type from the record's type to the list's (its id alone names the pair and the direction). */
  associationTypeId: number;
  /** The list's object type: the associated records counted are of it. */
  toObjectTypeId: string;
  min: number;
  max?: number;
  isIn: boolean;
}

/**
 * One compiled ASSOCIATION filter branch (PublicAssociationFilterBranch): whether any of the record's
 * associated records of `objectTypeId`, through one association type, passes the branch's filters
 * (an AND of them, compiled against that type's properties). IN_LIST holds when one does;
 * NOT_IN_LIST when none does.
 */
export interface AssociatedBranch {
  type: 'ASSOCIATED_BRANCH';
  objectTypeId: string;
  associationTypeId: number;
  isIn: boolean;
  /** The branch's filters: PROPERTY filters of `objectTypeId`'s records. */
  branches: ListFilterTree[];
}

export interface ListFilterNode {
  type: 'OR' | 'AND' | 'NOT_ALL' | 'NOT_ANY';
  /** The branch's filters, then its sub-branches. */
  branches: ListFilterTree[];
}

/** A list's filters compiled to compared forms: JSON-serializable (stored on the list item), evaluated with no property lookups. */
export type ListFilterTree =
  | ListFilterNode
  | ListFilterLeaf
  | ListMembershipLeaf
  | AssociatedListLeaf
  | AssociatedBranch;

/** Whether the record being matched is a member of a list (what an IN_LIST filter asks). */
export type MemberOf = (listId: string) => boolean;

/** How many of the record being matched's associated records an ASSOCIATION filter counts (associatedCountKey names the count). */
export type AssociatedCount = (leaf: AssociatedListLeaf) => number;

/** The search forms of the record being matched's associated records an ASSOCIATION branch reads (associatedBranchKey names them). */
export type AssociatedRecords = (branch: AssociatedBranch) => readonly SearchForms[];

/** For a tree with no IN_LIST filter. */
const memberOfNone: MemberOf = () => false;
/** For a tree with no ASSOCIATION filter. */
const associatedNone: AssociatedCount = () => 0;
/** For a tree with no ASSOCIATION branch. */
const recordsNone: AssociatedRecords = () => [];

/** The leaves of a tree, depth first in order. An explicit stack: the compile bounds the tree's size, and no depth reaches the call stack. */
function leavesOf(tree: ListFilterTree): (ListFilterLeaf | ListMembershipLeaf | AssociatedListLeaf)[] {
  const leaves: (ListFilterLeaf | ListMembershipLeaf | AssociatedListLeaf)[] = [];
  const stack: ListFilterTree[] = [tree];
  while (stack.length > 0) {
    const node = stack.pop() as ListFilterTree;
    if (node.type === 'FILTER' || node.type === 'IN_LIST' || node.type === 'ASSOCIATED_IN_LIST') leaves.push(node);
    // An ASSOCIATION branch's filters are of another type's records: not leaves of this tree's records.
    else if (node.type === 'ASSOCIATED_BRANCH') continue;
    else
      for (let index = node.branches.length - 1; index >= 0; index -= 1)
        stack.push(node.branches[index] as ListFilterTree);
  }
  return leaves;
}

/** The ids of the lists (of the tree's own type) a tree's IN_LIST filters name, each once, in the order first named. */
export function listIdsOfTree(tree: ListFilterTree): string[] {
  const ids = new Set<string>();
  for (const leaf of leavesOf(tree)) if (leaf.type === 'IN_LIST') ids.add(leaf.listId);
  return [...ids];
}

/** The key of one count of associated members: the same list through the same association type is counted once. */
export const associatedCountKey = (leaf: Pick<AssociatedListLeaf, 'listId' | 'associationTypeId'>): string =>
  `${leaf.listId}/${leaf.associationTypeId}`;

const associationLeavesCache = new WeakMap<object, AssociatedListLeaf[]>();

/** A tree's ASSOCIATION filters, one per count (associatedCountKey), in the order first named; cached per tree object. */
export function associationLeavesOf(tree: ListFilterTree): AssociatedListLeaf[] {
  const cached = associationLeavesCache.get(tree);
  if (cached) return cached;
  const byKey = new Map<string, AssociatedListLeaf>();
  for (const leaf of leavesOf(tree))
    if (leaf.type === 'ASSOCIATED_IN_LIST' && !byKey.has(associatedCountKey(leaf)))
      byKey.set(associatedCountKey(leaf), leaf);
  const leaves = [...byKey.values()];
  associationLeavesCache.set(tree, leaves);
  return leaves;
}

/** The key of one set of associated records an ASSOCIATION branch reads: the same type through the same association type is read once. */
export const associatedBranchKey = (branch: Pick<AssociatedBranch, 'objectTypeId' | 'associationTypeId'>): string =>
  `${branch.objectTypeId}/${branch.associationTypeId}`;

const associationBranchesCache = new WeakMap<object, AssociatedBranch[]>();

/** A tree's ASSOCIATION branches, in the order first met; cached per tree object. */
export function associationBranchesOf(tree: ListFilterTree): AssociatedBranch[] {
  const cached = associationBranchesCache.get(tree);
  if (cached) return cached;
  const branches: AssociatedBranch[] = [];
  const stack: ListFilterTree[] = [tree];
  while (stack.length > 0) {
    const node = stack.pop() as ListFilterTree;
    if (node.type === 'ASSOCIATED_BRANCH') branches.push(node);
    else if (node.type !== 'FILTER' && node.type !== 'IN_LIST' && node.type !== 'ASSOCIATED_IN_LIST')
      for (let index = node.branches.length - 1; index >= 0; index -= 1)
        stack.push(node.branches[index] as ListFilterTree);
  }
  associationBranchesCache.set(tree, branches);
  return branches;
}

/** Every list a tree names, in IN_LIST and ASSOCIATION filters alike, each once: what the list references and their cycle check follow. */
export function namedListIdsOfTree(tree: ListFilterTree): string[] {
  const ids = new Set<string>();
  for (const leaf of leavesOf(tree)) if (leaf.type !== 'FILTER') ids.add(leaf.listId);
  return [...ids];
}

/** The ids of the records of the leaf's list's type that a record's association keys (`<typeId>/<id>/<associationTypeId>`) name through the leaf's association type. */
export function associatedIdsVia(
  associations: Readonly<Record<string, string>>,
  leaf: Pick<AssociatedListLeaf, 'toObjectTypeId' | 'associationTypeId'>,
): string[] {
  const prefix = `${leaf.toObjectTypeId}/`;
  const suffix = `/${leaf.associationTypeId}`;
  const ids = new Set<string>();
  for (const key of Object.keys(associations))
    if (key.startsWith(prefix) && key.endsWith(suffix)) ids.add(key.slice(prefix.length, key.length - suffix.length));
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

type TreeMatch = (
  forms: SearchForms,
  cache: TokenCache,
  memberOf: MemberOf,
  associated: AssociatedCount,
  records: AssociatedRecords,
) => boolean;

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
  if (tree.type === 'ASSOCIATED_IN_LIST') {
    const leaf = tree;
    return (_forms, _cache, _memberOf, associated) => {
      const count = associated(leaf);
      return (count >= leaf.min && (leaf.max === undefined || count <= leaf.max)) === leaf.isIn;
    };
  }
  const children = tree.branches.map((branch) => compileTreeMatch(branch, nowMs));
  switch (tree.type) {
    case 'ASSOCIATED_BRANCH': {
      const branch = tree;
      // Each associated record against the branch's filters, with its own token cache.
      const passes = (forms: SearchForms) =>
        children.every((matches) => matches(forms, new Map(), memberOfNone, associatedNone, recordsNone));
      return (_forms, _cache, _memberOf, _associated, records) => records(branch).some(passes) === branch.isIn;
    }
    case 'AND':
      return (forms, cache, memberOf, associated, records) =>
        children.every((matches) => matches(forms, cache, memberOf, associated, records));
    case 'OR':
      return (forms, cache, memberOf, associated, records) =>
        children.some((matches) => matches(forms, cache, memberOf, associated, records));
    case 'NOT_ALL':
      return (forms, cache, memberOf, associated, records) =>
        !children.every((matches) => matches(forms, cache, memberOf, associated, records));
    case 'NOT_ANY':
      return (forms, cache, memberOf, associated, records) =>
        !children.some((matches) => matches(forms, cache, memberOf, associated, records));
  }
}

/** A compiled tree's match of one record. */
export type ListMatcher = (
  forms: SearchForms,
  memberOf?: MemberOf,
  associated?: AssociatedCount,
  records?: AssociatedRecords,
) => boolean;

/**
 * Whether a record's search forms (and, for IN_LIST filters, its memberships: `memberOf`; for
 * ASSOCIATION filters, its associated records' counted memberships: `associated`; for ASSOCIATION
 * branches, its associated records' forms: `records`) match the tree,
 * at `nowMs` for relative dates. Time linear in the record's values times the filters.
 */
export function listFilterMatcher(tree: ListFilterTree, nowMs: number = Date.now()): ListMatcher {
  const matches = compileTreeMatch(tree, nowMs);
  return (forms, memberOf = memberOfNone, associated = associatedNone, records = recordsNone) =>
    matches(forms, new Map(), memberOf, associated, records);
}
