/**
 * A DYNAMIC or SNAPSHOT list's filterBranch: checked as HubSpot checks it, compiled once into a tree
 * of the search's compiled filters (stored on the list item), and matched against a record's search
 * forms with the search's own matcher (match-search.ts compileFilterMatch), so a value is evaluated
 * one way for searches and lists. docs/lists.md "Filters" lists what is accepted and the 400s.
 */
import { compactJsonLength } from '../base/compact-json-length';
import { ValidationError } from '../base/errors';
import type { PropertyRules } from '../properties/property-definition';
import { type PropertyLookup, quoteValue } from '../properties/validate-property-values';
import { parseSearchNumber } from '../records/search-forms';
import {
  instantAt,
  instantOfWallClock,
  isRelative,
  midnightOf,
  utcOf,
  zoneFormatOf,
  type ListFilterLeaf,
  type ListFilterNode,
  type ListFilterOperand,
  type ListFilterTree,
  type ListMembershipLeaf,
  type AssociatedListLeaf,
  type AssociatedBranch,
  type RelativeInstant,
  type TimeOffset,
} from './list-filter-match';
import {
  type FilterInput,
  formKindOf,
  type MatchOperator,
  propertyNoun,
  type SearchedType,
  type SearchOperator,
} from '../search/search-request';

export {
  type AssociatedBranch,
  type AssociatedListLeaf,
  compiledFilterOf,
  instantAt,
  listFilterMatcher,
  type ListFilterLeaf,
  type ListFilterNode,
  type ListFilterOperand,
  type ListFilterTree,
  listIdsOfTree,
  type ListMembershipLeaf,
  type MemberOf,
  type RelativeInstant,
  type TimeOffset,
} from './list-filter-match';

export const listFilterLimits = {
  /** PROPERTY filters in one filterBranch, at every depth. */
  filters: 250,
  /** Branches from the root OR (depth 1) down: OR, AND, then up to 4 levels of NOT_ALL/NOT_ANY. */
  depth: 6,
  /** The filterBranch as compact JSON. */
  bodyChars: 50_000,
  /**
   * Values looked for inside a value (CONTAINS, DOES_NOT_CONTAIN, CONTAINS_EXACTLY,
   * DOES_NOT_CONTAIN_EXACTLY), in all: each costs one pass over a record's value (up to 64 KiB), and
   * lists are matched on every record write.
   */
  textSearches: 50,
  /** Lists the IN_LIST and ASSOCIATION filters of one filterBranch name, in all (each is read on every write of a record of the type). */
  listsNamed: 10,
  /** ASSOCIATION branches in one filterBranch (each reads up to 1,000 associated records on every write of a record of the type). */
  associationBranches: 5,
  /** Groups (and filters in a group) searchGroupsOf gives before it answers undefined. */
  searchGroups: 100,
} as const;

export interface CompiledListFilters {
  /** The filterBranch as HubSpot answers it: each branch echoes filterBranchOperator (= its type) and every property operation gets includeObjectsWithNoValueSet (default false). */
  branch: Record<string, unknown>;
  tree: ListFilterTree;
  /** Every property the filters read. */
  properties: string[];
  /** True when a filter compares with the current time (rolling/relative date filters). */
  isTimeRelative: boolean;
  /** The lists IN_LIST filters name, each once with the path of its first filter (the caller checks they are lists the filters may name). */
  listsNamed: { listId: string; path: string }[];
  /**
   * Each ASSOCIATION filter, with its path: the caller checks its association type and list
   * (list-references.ts requireNamedLists), and sets the leaf's toObjectTypeId to the list's type.
   */
  associationsNamed: NamedAssociation[];
  /** Each ASSOCIATION branch, with its path: the caller checks its association type (list-references.ts requireNamedLists). */
  associationBranches: NamedAssociationBranch[];
}

/** An ASSOCIATION branch as compiled, before its association type is checked. */
export interface NamedAssociationBranch {
  objectTypeId: string;
  associationTypeId: number;
  associationCategory: string;
  path: string;
}

/** What an ASSOCIATION branch's filters are compiled against: the properties of the records it reads. */
export interface AssociatedScope {
  lookup: PropertyLookup;
  searched: SearchedType;
}

/** An ASSOCIATION filter as compiled, before its association type and list are checked. */
export interface NamedAssociation {
  leaf: AssociatedListLeaf;
  associationCategory: string;
  /** toObjectTypeId as sent, when it was. */
  toObjectTypeId?: string;
  path: string;
}

type BranchType = ListFilterNode['type'];

const evaluatedBranchTypes = new Set<string>(['OR', 'AND', 'NOT_ALL', 'NOT_ANY']);
const unevaluatedBranchTypes = new Set(['ASSOCIATION', 'UNIFIED_EVENTS', 'RESTRICTED']);
/** Every filterType of the Lists spec but PROPERTY. */
const unevaluatedFilterTypes = new Set([
  'ADS_SEARCH',
  'ADS_TIME',
  'COMMUNICATION_SUBSCRIPTION',
  'CONSTANT',
  'CTA',
  'EMAIL_EVENT',
  'EMAIL_SUBSCRIPTION',
  'EVENT',
  'FORM_SUBMISSION',
  'FORM_SUBMISSION_ON_PAGE',
  'INTEGRATION_EVENT',
  'PAGE_VIEW',
  'PRIVACY',
  'SURVEY_MONKEY',
  'SURVEY_MONKEY_VALUE',
  'UNIFIED_EVENTS',
  'WEBINAR',
]);
/** operationTypes of the Lists spec this service does not evaluate. */
const unevaluatedOperationTypes = new Set([
  'CALENDAR_DATE',
  'COMPARATIVE_DATE',
  'COMPARATIVE_PROPERTY_UPDATED',
  'COMPARATIVE_STRING',
  'DATE',
  'ROLLING_PROPERTY_UPDATED',
]);

const historyOperators = {
  STRING: ['HAS_EVER_BEEN_EQUAL_TO', 'HAS_NEVER_BEEN_EQUAL_TO', 'HAS_EVER_CONTAINED', 'HAS_NEVER_CONTAINED'],
  NUMBER: ['HAS_EVER_BEEN_EQUAL_TO', 'HAS_NEVER_BEEN_EQUAL_TO'],
  BOOL: ['HAS_EVER_BEEN_EQUAL_TO', 'HAS_NEVER_BEEN_EQUAL_TO'],
  ENUMERATION: [
    'HAS_EVER_BEEN_ANY_OF',
    'HAS_NEVER_BEEN_ANY_OF',
    'HAS_EVER_BEEN_EXACTLY',
    'HAS_NEVER_BEEN_EXACTLY',
    'HAS_EVER_CONTAINED_ALL',
    'HAS_NEVER_CONTAINED_ALL',
  ],
} as const satisfies Record<string, readonly string[]>;

/** The operators each evaluated operationType takes (the Lists spec's Public*PropertyOperation). */
export const listFilterOperators = {
  STRING: ['IS_EQUAL_TO', 'IS_NOT_EQUAL_TO', 'CONTAINS', 'DOES_NOT_CONTAIN', 'STARTS_WITH', 'ENDS_WITH'],
  MULTISTRING: [
    'IS_EQUAL_TO',
    'IS_NOT_EQUAL_TO',
    'CONTAINS',
    'CONTAINS_EXACTLY',
    'DOES_NOT_CONTAIN',
    'DOES_NOT_CONTAIN_EXACTLY',
    'STARTS_WITH',
    'ENDS_WITH',
  ],
  NUMBER: [
    'IS_EQUAL_TO',
    'IS_NOT_EQUAL_TO',
    'IS_GREATER_THAN',
    'IS_GREATER_THAN_OR_EQUAL_TO',
    'IS_LESS_THAN',
    'IS_LESS_THAN_OR_EQUAL_TO',
  ],
  BOOL: ['IS_EQUAL_TO', 'IS_NOT_EQUAL_TO'],
  ENUMERATION: ['IS_ANY_OF', 'IS_NONE_OF', 'IS_EXACTLY', 'IS_NOT_EXACTLY', 'CONTAINS_ALL', 'DOES_NOT_CONTAIN_ALL'],
  ALL_PROPERTY: ['IS_KNOWN', 'IS_UNKNOWN'],
  DATETIME: ['IS_BEFORE', 'IS_AFTER'],
  RANGED_DATE: ['IS_BETWEEN', 'IS_NOT_BETWEEN'],
  NUMBER_RANGED: ['IS_BETWEEN', 'IS_NOT_BETWEEN'],
  ROLLING_DATE_RANGE: [
    'IS_LESS_THAN_X_DAYS_AGO',
    'IS_MORE_THAN_X_DAYS_AGO',
    'IS_LESS_THAN_X_DAYS_FROM_NOW',
    'IS_MORE_THAN_X_DAYS_FROM_NOW',
  ],
  TIME_POINT: ['IS_BEFORE', 'IS_AFTER'],
  TIME_RANGED: ['IS_BETWEEN', 'IS_NOT_BETWEEN'],
} as const satisfies Record<string, readonly string[]>;
type OperationType = keyof typeof listFilterOperators;

/** The property types each operationType reads. */
const operationPropertyTypes: Record<OperationType, readonly PropertyRules['type'][]> = {
  STRING: ['string', 'phone_number', 'enumeration', 'bool'],
  MULTISTRING: ['string', 'phone_number', 'enumeration', 'bool'],
  NUMBER: ['number'],
  NUMBER_RANGED: ['number'],
  BOOL: ['bool'],
  ENUMERATION: ['enumeration', 'bool'],
  ALL_PROPERTY: ['string', 'number', 'date', 'datetime', 'enumeration', 'bool', 'phone_number'],
  DATETIME: ['date', 'datetime'],
  RANGED_DATE: ['date', 'datetime'],
  ROLLING_DATE_RANGE: ['date', 'datetime'],
  TIME_POINT: ['date', 'datetime'],
  TIME_RANGED: ['date', 'datetime'],
};

/** Epoch milliseconds the search reads as an instant (shared/records/search-forms.ts: at most 15 digits). */
const maxTimestampMs = 999_999_999_999_999;
/** Far beyond any list's window, and small enough that every offset instant is a valid Date. */
const maxNumberOfDays = 3_650_000;
const offsetBounds: Record<keyof TimeOffset, number> = {
  years: 10_000,
  quarters: 40_000,
  months: 120_000,
  weeks: 520_000,
  days: maxNumberOfDays,
  hours: 87_600_000,
  minutes: 2_147_483_647,
  seconds: 2_147_483_647,
  milliseconds: 2_147_483_647,
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** What a compile throws: the path names the branch or filter, relative to the filterBranch. */
class FilterError {
  constructor(
    readonly path: string,
    readonly message: string,
  ) {}
}

function fail(path: string, message: string): never {
  throw new FilterError(path, message);
}

const join = (path: string, key: string): string => (path === '' ? key : `${path}.${key}`);

function integerField(
  object: Record<string, unknown>,
  key: string,
  path: string,
  low: number,
  high: number,
  isRequired: boolean,
): number | undefined {
  const value = object[key];
  if (value === undefined || value === null) {
    if (isRequired) fail(join(path, key), `${key} is required`);
    return undefined;
  }
  if (typeof value !== 'number' || !Number.isInteger(value) || value < low || value > high)
    fail(join(path, key), `${key} must be an integer from ${low} to ${high}`);
  return value as number;
}

function zoneField(point: Record<string, unknown>, path: string): string {
  const zoneId = point.zoneId;
  if (typeof zoneId !== 'string') return fail(join(path, 'zoneId'), 'zoneId is required (a time zone such as UTC)');
  if (!zoneFormatOf(zoneId)) fail(join(path, 'zoneId'), `${JSON.stringify(zoneId.slice(0, 64))} is not a time zone`);
  return zoneId;
}

/** A time point (PublicDatePoint or PublicIndexedTimePoint) as an operand, and its echo. */
function timePointOf(input: unknown, path: string): { operand: ListFilterOperand; echo: Record<string, unknown> } {
  if (!isRecord(input)) return fail(path, 'a time point must be an object');
  const { timeType } = input;
  if (timeType === 'DATE') {
    const year = integerField(input, 'year', path, 1, 9999, true) as number;
    const month = integerField(input, 'month', path, 1, 12, true) as number;
    const day = integerField(input, 'day', path, 1, 31, true) as number;
    const hour = integerField(input, 'hour', path, 0, 23, false);
    const minute = integerField(input, 'minute', path, 0, 59, false);
    const second = integerField(input, 'second', path, 0, 59, false);
    const millisecond = integerField(input, 'millisecond', path, 0, 999, false);
    const zoneId = zoneField(input, path);
    if (new Date(utcOf(midnightOf(year, month, day))).getUTCDate() !== day)
      fail(join(path, 'day'), `${year}-${month} has no day ${day}`);
    const instant = instantOfWallClock(zoneId, {
      year,
      month,
      day,
      hour: hour ?? 0,
      minute: minute ?? 0,
      second: second ?? 0,
      millisecond: millisecond ?? 0,
    });
    const echo: Record<string, unknown> = { timeType, year, month, day, zoneId };
    for (const [key, value] of Object.entries({ hour, minute, second, millisecond }))
      if (value !== undefined) echo[key] = value;
    if (typeof input.timezoneSource === 'string') echo.timezoneSource = input.timezoneSource;
    return { operand: instant, echo };
  }
  if (timeType === 'INDEXED') {
    const referencePath = join(path, 'indexReference');
    const reference = input.indexReference;
    if (!isRecord(reference)) return fail(referencePath, 'indexReference is required (referenceType NOW or TODAY)');
    const { referenceType } = reference;
    if (referenceType !== 'NOW' && referenceType !== 'TODAY') {
      return fail(
        join(referencePath, 'referenceType'),
        typeof referenceType === 'string'
          ? `this service does not evaluate indexReference ${JSON.stringify(referenceType.slice(0, 64))}; it evaluates NOW and TODAY`
          : 'referenceType is required (NOW or TODAY)',
      );
    }
    const zoneId = zoneField(input, path);
    const operand: RelativeInstant = { reference: referenceType, zoneId };
    const referenceEcho: Record<string, unknown> = { referenceType };
    if (referenceType === 'TODAY') {
      const hour = integerField(reference, 'hour', referencePath, 0, 23, false);
      const minute = integerField(reference, 'minute', referencePath, 0, 59, false);
      const second = integerField(reference, 'second', referencePath, 0, 59, false);
      const millisecond = integerField(reference, 'millisecond', referencePath, 0, 999, false);
      for (const [key, value] of Object.entries({ hour, minute, second, millisecond }))
        if (value !== undefined) referenceEcho[key] = value;
      if ([hour, minute, second, millisecond].some((value) => value !== undefined))
        operand.time = { hour: hour ?? 0, minute: minute ?? 0, second: second ?? 0, millisecond: millisecond ?? 0 };
    }
    const echo: Record<string, unknown> = { timeType, indexReference: referenceEcho, zoneId };
    if (input.offset !== undefined && input.offset !== null) {
      const offsetPath = join(path, 'offset');
      if (!isRecord(input.offset)) return fail(offsetPath, 'offset must be an object');
      const offset: TimeOffset = {};
      for (const key of Object.keys(offsetBounds) as (keyof TimeOffset)[]) {
        const bound = offsetBounds[key];
        const value = integerField(input.offset, key, offsetPath, -bound, bound, false);
        if (value !== undefined && value !== 0) offset[key] = value;
      }
      operand.offset = offset;
      echo.offset = { ...offset };
    }
    if (typeof input.timezoneSource === 'string') echo.timezoneSource = input.timezoneSource;
    return { operand, echo };
  }
  if (timeType === 'PROPERTY_REFERENCED')
    return fail(join(path, 'timeType'), 'this service does not evaluate PROPERTY_REFERENCED time points');
  return fail(join(path, 'timeType'), 'timeType must be DATE or INDEXED');
}

function endpointOf(operation: Record<string, unknown>, key: string, path: string, fallback: boolean): boolean {
  const value = operation[key];
  if (value === undefined || value === null) return fallback;
  if (value === 'INCLUSIVE') return true;
  if (value === 'EXCLUSIVE') return false;
  return fail(join(path, key), `${key} must be INCLUSIVE or EXCLUSIVE`);
}

interface CompiledProperty {
  propertyName: string;
  tree: ListFilterTree;
  echo: Record<string, unknown>;
  isTimeRelative: boolean;
}

/** What a filterBranch spends of the limits that span its filters. */
interface FilterBudget {
  textSearches: number;
}

function compilePropertyFilter(
  filter: Record<string, unknown>,
  path: string,
  lookup: PropertyLookup,
  searched: SearchedType,
  budget: FilterBudget,
): CompiledProperty {
  const { property, operation } = filter;
  if (typeof property !== 'string' || property === '')
    fail(join(path, 'property'), 'property is required (the name of a property)');
  const definition = lookup.find(property as string);
  if (!definition)
    fail(join(path, 'property'), `there is no ${propertyNoun(searched)} named ${quoteValue(property as string)}`);
  const rules = definition as PropertyRules;
  const operationPath = join(path, 'operation');
  if (!isRecord(operation)) return fail(operationPath, 'operation is required (an object)');
  const typePath = join(operationPath, 'operationType');
  const { operationType } = operation;
  if (typeof operationType !== 'string') return fail(typePath, 'operationType is required');
  if (unevaluatedOperationTypes.has(operationType))
    fail(typePath, `this service does not evaluate operationType ${operationType}`);
  if (!Object.hasOwn(listFilterOperators, operationType))
    fail(typePath, `${JSON.stringify(operationType.slice(0, 64))} is not an operationType`);
  const type = operationType as OperationType;
  if (!operationPropertyTypes[type].includes(rules.type))
    fail(typePath, `property ${rules.name} is of type ${rules.type}; operationType ${type} does not compare it`);
  const operatorPath = join(operationPath, 'operator');
  const { operator } = operation;
  if (typeof operator !== 'string') return fail(operatorPath, 'operator is required');
  const history: readonly string[] = (historyOperators as Record<string, readonly string[]>)[type] ?? [];
  if (history.includes(operator))
    fail(operatorPath, `this service does not evaluate property history operators (${operator})`);
  const accepted: readonly string[] = listFilterOperators[type];
  if (!accepted.includes(operator))
    fail(
      operatorPath,
      `${JSON.stringify(operator.slice(0, 64))} is not an operator of operationType ${type}; use one of ${accepted.join(', ')}`,
    );
  const flag = operation.includeObjectsWithNoValueSet;
  if (flag !== undefined && flag !== null && typeof flag !== 'boolean')
    fail(join(operationPath, 'includeObjectsWithNoValueSet'), 'includeObjectsWithNoValueSet must be a boolean');
  const isUnsetIncluded = flag === true;
  const kind = formKindOf(rules);
  const leaf = (
    matchOperator: MatchOperator,
    operands: Pick<ListFilterLeaf, 'value' | 'highValue' | 'values'>,
    whenUnset = isUnsetIncluded,
  ): ListFilterLeaf => ({
    type: 'FILTER',
    propertyName: rules.name,
    kind,
    operator: matchOperator,
    ...operands,
    whenUnset,
  });
  const echo: Record<string, unknown> = { operationType: type, operator };
  const compared = (text: string) => (kind === 'lower' ? text.toLowerCase() : text);
  const spendTextSearches = (count: number, key: 'value' | 'values') => {
    budget.textSearches += count;
    if (budget.textSearches > listFilterLimits.textSearches)
      fail(
        join(operationPath, key),
        `a filterBranch looks for at most ${listFilterLimits.textSearches} values inside values (CONTAINS, DOES_NOT_CONTAIN, CONTAINS_EXACTLY, DOES_NOT_CONTAIN_EXACTLY) in all`,
      );
  };
  const searchesText = ['CONTAINS', 'DOES_NOT_CONTAIN', 'CONTAINS_EXACTLY', 'DOES_NOT_CONTAIN_EXACTLY'].includes(
    operator,
  );
  let tree: ListFilterTree;
  let isTimeRelative = false;

  const stringValue = (): string => {
    const { value } = operation;
    if (typeof value !== 'string') return fail(join(operationPath, 'value'), 'value is required (a string)');
    echo.value = value;
    return value;
  };
  const stringValues = (): string[] => {
    const valuesPath = join(operationPath, 'values');
    const { values } = operation;
    if (!Array.isArray(values) || values.length === 0)
      return fail(valuesPath, 'values is required (an array of at least one string)');
    values.forEach((value, index) => {
      if (typeof value !== 'string') fail(`${valuesPath}[${index}]`, 'values must be strings');
    });
    echo.values = [...values];
    return [...new Set(values as string[])];
  };
  const numberField = (key: string, isTimestamp: boolean): number => {
    const raw = operation[key];
    // A number sent as a string is read as the search reads one (no hex, no Infinity).
    const value = typeof raw === 'string' ? parseSearchNumber(raw.slice(0, 1000)) : raw;
    const fieldPath = join(operationPath, key);
    if (typeof value !== 'number' || !Number.isFinite(value))
      return fail(fieldPath, `${key} is required (${isTimestamp ? 'epoch milliseconds' : 'a number'})`);
    if (isTimestamp && (!Number.isInteger(value) || Math.abs(value) > maxTimestampMs))
      fail(fieldPath, `${key} must be whole epoch milliseconds of at most 15 digits`);
    echo[key] = value;
    return value === 0 ? 0 : value;
  };
  const timeZoneFlag = () => {
    const value = operation.requiresTimeZoneConversion;
    if (value !== undefined && value !== null && typeof value !== 'boolean')
      fail(join(operationPath, 'requiresTimeZoneConversion'), 'requiresTimeZoneConversion must be a boolean');
    echo.requiresTimeZoneConversion = value === true;
  };

  switch (type) {
    case 'STRING': {
      const value = compared(stringValue());
      if (searchesText) spendTextSearches(1, 'value');
      const byOperator: Record<string, ListFilterLeaf> = {
        IS_EQUAL_TO: leaf('EQ', { value }),
        IS_NOT_EQUAL_TO: leaf('NEQ', { value }),
        CONTAINS: leaf('CONTAINS', { values: [value] }),
        DOES_NOT_CONTAIN: leaf('NOT_CONTAINS', { values: [value] }),
        STARTS_WITH: leaf('STARTS_WITH', { values: [value] }),
        ENDS_WITH: leaf('ENDS_WITH', { values: [value] }),
      };
      tree = byOperator[operator] as ListFilterLeaf;
      break;
    }
    case 'MULTISTRING': {
      const values = [...new Set(stringValues().map(compared))];
      if (searchesText) spendTextSearches(values.length, 'values');
      switch (operator) {
        case 'IS_EQUAL_TO':
          tree = leaf('IN', { values });
          break;
        case 'IS_NOT_EQUAL_TO':
          tree = leaf('NOT_IN', { values });
          break;
        case 'CONTAINS':
          tree = leaf('CONTAINS', { values });
          break;
        case 'DOES_NOT_CONTAIN':
          tree = leaf('NOT_CONTAINS', { values });
          break;
        // A whole token of the value, as the search's CONTAINS_TOKEN reads one.
        case 'CONTAINS_EXACTLY':
          tree = { type: 'OR', branches: values.map((value) => leaf('CONTAINS_TOKEN', { value })) };
          break;
        case 'DOES_NOT_CONTAIN_EXACTLY':
          tree = { type: 'AND', branches: values.map((value) => leaf('NOT_CONTAINS_TOKEN', { value })) };
          break;
        case 'STARTS_WITH':
          tree = leaf('STARTS_WITH', { values });
          break;
        default:
          tree = leaf('ENDS_WITH', { values });
      }
      break;
    }
    case 'NUMBER': {
      const value = numberField('value', false);
      const byOperator: Record<string, SearchOperator> = {
        IS_EQUAL_TO: 'EQ',
        IS_NOT_EQUAL_TO: 'NEQ',
        IS_GREATER_THAN: 'GT',
        IS_GREATER_THAN_OR_EQUAL_TO: 'GTE',
        IS_LESS_THAN: 'LT',
        IS_LESS_THAN_OR_EQUAL_TO: 'LTE',
      };
      tree = leaf(byOperator[operator] as SearchOperator, { value });
      break;
    }
    case 'BOOL': {
      const raw = operation.value;
      const value =
        typeof raw === 'boolean'
          ? raw
          : typeof raw === 'string' && /^(true|false)$/i.test(raw)
            ? raw.toLowerCase() === 'true'
            : fail(join(operationPath, 'value'), 'value is required (true or false)');
      echo.value = value;
      tree = leaf(operator === 'IS_EQUAL_TO' ? 'EQ' : 'NEQ', { value: String(value) });
      break;
    }
    case 'ENUMERATION': {
      const values = stringValues();
      // A multiple-checkbox value holds several options joined by ';'; a single-select value is one option.
      const isMultiple = rules.fieldType === 'checkbox';
      const [only] = values;
      const isOne = values.length === 1 && only !== undefined;
      switch (operator) {
        case 'IS_ANY_OF':
          tree = leaf(isMultiple ? 'CONTAINS_ANY' : 'IN', { values });
          break;
        case 'IS_NONE_OF':
          tree = leaf(isMultiple ? 'CONTAINS_NONE' : 'NOT_IN', { values });
          break;
        case 'IS_EXACTLY':
          tree = !isMultiple && isOne ? leaf('EQ', { value: only }) : leaf('SET_EQ', { values });
          break;
        case 'IS_NOT_EXACTLY':
          tree = !isMultiple && isOne ? leaf('NEQ', { value: only }) : leaf('SET_NEQ', { values });
          break;
        case 'CONTAINS_ALL':
          tree = !isMultiple && isOne ? leaf('EQ', { value: only }) : leaf('CONTAINS_ALL', { values });
          break;
        default:
          tree = !isMultiple && isOne ? leaf('NEQ', { value: only }) : leaf('NOT_CONTAINS_ALL', { values });
      }
      break;
    }
    case 'ALL_PROPERTY':
      tree = operator === 'IS_KNOWN' ? leaf('HAS_PROPERTY', {}, isUnsetIncluded) : leaf('NOT_HAS_PROPERTY', {}, true);
      break;
    case 'DATETIME': {
      const value = numberField('timestamp', true);
      timeZoneFlag();
      tree = leaf(operator === 'IS_BEFORE' ? 'LT' : 'GT', { value });
      break;
    }
    case 'RANGED_DATE':
    case 'NUMBER_RANGED': {
      const isTimestamp = type === 'RANGED_DATE';
      const value = numberField('lowerBound', isTimestamp);
      const highValue = numberField('upperBound', isTimestamp);
      if (isTimestamp) timeZoneFlag();
      tree = leaf(operator === 'IS_BETWEEN' ? 'BETWEEN' : 'NOT_BETWEEN', { value, highValue });
      break;
    }
    case 'ROLLING_DATE_RANGE': {
      const days = integerField(operation, 'numberOfDays', operationPath, 0, maxNumberOfDays, true) as number;
      echo.numberOfDays = days;
      timeZoneFlag();
      // Days of 24 hours from the evaluation time.
      const now: RelativeInstant = { reference: 'NOW', zoneId: 'UTC' };
      const shifted = (sign: number): RelativeInstant => (days === 0 ? now : { ...now, offset: { days: sign * days } });
      const byOperator: Record<string, ListFilterLeaf> = {
        IS_LESS_THAN_X_DAYS_AGO: leaf('BETWEEN', { value: shifted(-1), highValue: now }),
        IS_MORE_THAN_X_DAYS_AGO: leaf('LT', { value: shifted(-1) }),
        IS_LESS_THAN_X_DAYS_FROM_NOW: leaf('BETWEEN', { value: now, highValue: shifted(1) }),
        IS_MORE_THAN_X_DAYS_FROM_NOW: leaf('GT', { value: shifted(1) }),
      };
      tree = byOperator[operator] as ListFilterLeaf;
      isTimeRelative = true;
      break;
    }
    case 'TIME_POINT': {
      const point = timePointOf(operation.timePoint, join(operationPath, 'timePoint'));
      const isInclusive = endpointOf(operation, 'endpointBehavior', operationPath, false);
      echo.timePoint = point.echo;
      echo.type = 'TIME_POINT';
      if (operation.endpointBehavior !== undefined) echo.endpointBehavior = operation.endpointBehavior;
      const value = point.operand;
      tree =
        operator === 'IS_BEFORE'
          ? leaf(isInclusive ? 'LTE' : 'LT', { value })
          : leaf(isInclusive ? 'GTE' : 'GT', { value });
      isTimeRelative = isRelative(value);
      break;
    }
    default: {
      const low = timePointOf(operation.lowerBoundTimePoint, join(operationPath, 'lowerBoundTimePoint'));
      const high = timePointOf(operation.upperBoundTimePoint, join(operationPath, 'upperBoundTimePoint'));
      const isLowInclusive = endpointOf(operation, 'lowerBoundEndpointBehavior', operationPath, true);
      const isHighInclusive = endpointOf(operation, 'upperBoundEndpointBehavior', operationPath, true);
      echo.lowerBoundTimePoint = low.echo;
      echo.upperBoundTimePoint = high.echo;
      echo.type = 'TIME_RANGED';
      for (const key of ['lowerBoundEndpointBehavior', 'upperBoundEndpointBehavior'])
        if (operation[key] !== undefined) echo[key] = operation[key];
      const value = low.operand;
      const highValue = high.operand;
      if (operator === 'IS_BETWEEN') {
        tree =
          isLowInclusive && isHighInclusive
            ? leaf('BETWEEN', { value, highValue })
            : {
                type: 'AND',
                branches: [
                  leaf(isLowInclusive ? 'GTE' : 'GT', { value }),
                  leaf(isHighInclusive ? 'LTE' : 'LT', { value: highValue }),
                ],
              };
      } else {
        tree =
          isLowInclusive && isHighInclusive
            ? leaf('NOT_BETWEEN', { value, highValue })
            : {
                type: 'OR',
                branches: [
                  leaf(isLowInclusive ? 'LT' : 'LTE', { value }),
                  leaf(isHighInclusive ? 'GT' : 'GTE', { value: highValue }),
                ],
              };
      }
      isTimeRelative = isRelative(value) || isRelative(highValue);
    }
  }
  echo.includeObjectsWithNoValueSet = isUnsetIncluded;
  if (typeof operation.propertyParser === 'string' && (type === 'TIME_POINT' || type === 'TIME_RANGED'))
    echo.propertyParser = operation.propertyParser;
  return {
    propertyName: rules.name,
    tree,
    echo: { filterType: 'PROPERTY', property, operation: echo },
    isTimeRelative,
  };
}

/** An IN_LIST filter (PublicInListFilter): `listId` and operator IN_LIST or NOT_IN_LIST; its `metadata` (workflow and import lists) is not evaluated. */
function compileInListFilter(
  filter: Record<string, unknown>,
  path: string,
): { leaf: ListMembershipLeaf; echo: Record<string, unknown> } {
  const { listId, operator, metadata } = filter;
  if (metadata !== undefined && metadata !== null) {
    const kind =
      isRecord(metadata) && typeof metadata.inListType === 'string' ? ` (${metadata.inListType.slice(0, 64)})` : '';
    fail(
      join(path, 'metadata'),
      `this service does not evaluate IN_LIST filters of workflow, import or dataset lists${kind}; leave metadata out to name a list by its listId`,
    );
  }
  if (typeof listId !== 'string' || !/^[0-9]{1,12}$/.test(listId))
    fail(join(path, 'listId'), 'listId is required (the id of a list, a string of digits)');
  if (operator !== 'IN_LIST' && operator !== 'NOT_IN_LIST')
    fail(join(path, 'operator'), 'operator must be IN_LIST or NOT_IN_LIST');
  return {
    leaf: { type: 'IN_LIST', listId: listId as string, isIn: operator === 'IN_LIST' },
    echo: { filterType: 'IN_LIST', listId, operator },
  };
}

/** The association categories an ASSOCIATION filter may name. */
const associationCategories = new Set(['HUBSPOT_DEFINED', 'USER_DEFINED', 'INTEGRATOR_DEFINED']);
const maxInt32 = 2_147_483_647;

/** What an ASSOCIATION filter and an ASSOCIATION branch both hold: the operator, the association type id and its category. */
function requireAssociationFields(input: Record<string, unknown>, path: string): void {
  const { operator, associationTypeId, associationCategory } = input;
  if (operator !== 'IN_LIST' && operator !== 'NOT_IN_LIST')
    fail(join(path, 'operator'), 'operator must be IN_LIST or NOT_IN_LIST');
  if (
    typeof associationTypeId !== 'number' ||
    !Number.isInteger(associationTypeId) ||
    associationTypeId < 1 ||
    associationTypeId > maxInt32
  )
    fail(join(path, 'associationTypeId'), 'associationTypeId is required (the id of an association type, an integer)');
  if (typeof associationCategory !== 'string' || !associationCategories.has(associationCategory))
    fail(
      join(path, 'associationCategory'),
      'associationCategory is required: HUBSPOT_DEFINED, USER_DEFINED or INTEGRATOR_DEFINED',
    );
}

/**
 * An ASSOCIATION filter (PublicAssociationInListFilter): `listId`, operator IN_LIST or NOT_IN_LIST,
 * `associationTypeId` and `associationCategory`, and `coalescingRefineBy` of type NUM_OCCURRENCES
 * (`minOccurrences`, default 1, and `maxOccurrences`, no bound when absent): how many associated
 * records must be members. Other refineBy types are not evaluated.
 */
function compileAssociationFilter(
  filter: Record<string, unknown>,
  path: string,
): NamedAssociation & { echo: Record<string, unknown> } {
  const { listId, operator, associationTypeId, associationCategory, coalescingRefineBy, toObjectTypeId } = filter;
  if (typeof listId !== 'string' || !/^[0-9]{1,12}$/.test(listId))
    fail(join(path, 'listId'), 'listId is required (the id of a list of the associated records, a string of digits)');
  requireAssociationFields(filter, path);
  if (toObjectTypeId !== undefined && (typeof toObjectTypeId !== 'string' || toObjectTypeId.length > 64))
    fail(join(path, 'toObjectTypeId'), 'toObjectTypeId must be an object type id');
  const refinePath = join(path, 'coalescingRefineBy');
  if (!isRecord(coalescingRefineBy))
    fail(refinePath, 'coalescingRefineBy is required: {"type": "NUM_OCCURRENCES", "minOccurrences": 1}');
  const refine = coalescingRefineBy as Record<string, unknown>;
  if (refine.type !== 'NUM_OCCURRENCES')
    fail(
      join(refinePath, 'type'),
      typeof refine.type === 'string'
        ? `this service does not evaluate ${refine.type.slice(0, 64)} refinements of ASSOCIATION filters; it evaluates NUM_OCCURRENCES`
        : 'coalescingRefineBy.type is required (NUM_OCCURRENCES)',
    );
  const count = (key: 'minOccurrences' | 'maxOccurrences'): number | undefined => {
    const value = refine[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > maxInt32)
      fail(join(refinePath, key), `${key} must be an integer from 0`);
    return value as number;
  };
  const min = count('minOccurrences') ?? 1;
  const max = count('maxOccurrences');
  if (max !== undefined && max < min)
    fail(join(refinePath, 'maxOccurrences'), 'maxOccurrences must be at least minOccurrences');
  const leaf: AssociatedListLeaf = {
    type: 'ASSOCIATED_IN_LIST',
    listId: listId as string,
    associationTypeId: associationTypeId as number,
    toObjectTypeId: '',
    min,
    ...(max === undefined ? {} : { max }),
    isIn: operator === 'IN_LIST',
  };
  return {
    leaf,
    associationCategory: associationCategory as string,
    ...(typeof toObjectTypeId === 'string' ? { toObjectTypeId } : {}),
    path,
    echo: {
      filterType: 'ASSOCIATION',
      listId,
      operator,
      associationTypeId,
      associationCategory,
      coalescingRefineBy: {
        type: 'NUM_OCCURRENCES',
        minOccurrences: min,
        ...(max === undefined ? {} : { maxOccurrences: max }),
      },
    },
  };
}

interface PendingBranch {
  input: unknown;
  path: string;
  depth: number;
  parent: BranchType | undefined;
  /** Where the compiled node and its echo go. */
  place: (node: ListFilterNode | AssociatedBranch, echo: Record<string, unknown>) => void;
}

/**
 * An ASSOCIATION branch (PublicAssociationFilterBranch): `objectTypeId` (the associated records'
 * type), `operator` IN_LIST or NOT_IN_LIST, `associationTypeId`, `associationCategory`, and PROPERTY
 * filters of that type's records (no sub-branches): a record passes IN_LIST when one of its
 * associated records through that association type passes every filter, NOT_IN_LIST when none does.
 */
function compileAssociationBranch(
  input: Record<string, unknown>,
  path: string,
  scopeOf: (objectTypeId: string) => AssociatedScope | undefined,
  compileFilter: (
    filter: unknown,
    filterPath: string,
    scope: AssociatedScope,
  ) => { tree: ListFilterTree; echo: Record<string, unknown> },
): { node: AssociatedBranch; echo: Record<string, unknown>; named: NamedAssociationBranch } {
  const { objectTypeId, operator, associationTypeId, associationCategory } = input;
  if (typeof objectTypeId !== 'string' || objectTypeId.length > 64)
    fail(join(path, 'objectTypeId'), "objectTypeId is required (the associated records' object type id)");
  const scope = scopeOf(objectTypeId as string);
  if (!scope) fail(join(path, 'objectTypeId'), `no object type of this account has the id ${objectTypeId}`);
  requireAssociationFields(input, path);
  if (arrayField(input, 'filterBranches', path).length > 0)
    fail(
      `${join(path, 'filterBranches')}[0]`,
      'this service evaluates ASSOCIATION branches of PROPERTY filters, without sub-branches',
    );
  const filters = arrayField(input, 'filters', path);
  const compiled = filters.map((filter, index) =>
    compileFilter(filter, `${join(path, 'filters')}[${index}]`, scope as AssociatedScope),
  );
  return {
    node: {
      type: 'ASSOCIATED_BRANCH',
      objectTypeId: objectTypeId as string,
      associationTypeId: associationTypeId as number,
      isIn: operator === 'IN_LIST',
      branches: compiled.map((entry) => entry.tree),
    },
    echo: {
      filterBranchType: 'ASSOCIATION',
      filterBranchOperator: 'AND',
      objectTypeId,
      operator,
      associationTypeId,
      associationCategory,
      filterBranches: [],
      filters: compiled.map((entry) => entry.echo),
    },
    named: {
      objectTypeId: objectTypeId as string,
      associationTypeId: associationTypeId as number,
      associationCategory: associationCategory as string,
      path,
    },
  };
}

function branchTypeOf(input: Record<string, unknown>, path: string, parent: BranchType | undefined): BranchType {
  const typePath = join(path, 'filterBranchType');
  const type = input.filterBranchType;
  if (typeof type !== 'string') return fail(typePath, 'filterBranchType is required');
  if (type === 'ASSOCIATION' && parent === undefined) fail(typePath, 'the root filterBranch must be an OR branch');
  if (type === 'ASSOCIATION' && parent === 'OR')
    fail(typePath, "the root OR branch's filterBranches must be AND branches");
  // ASSOCIATION branches are compiled before this (compileAssociationBranch) when the associated types' properties are at hand.
  if (unevaluatedBranchTypes.has(type)) fail(typePath, `this service does not evaluate ${type} filter branches`);
  if (!evaluatedBranchTypes.has(type)) fail(typePath, `${JSON.stringify(type.slice(0, 64))} is not a filterBranchType`);
  if (parent === undefined && type !== 'OR') fail(typePath, 'the root filterBranch must be an OR branch');
  if (parent === 'OR' && type !== 'AND') fail(typePath, "the root OR branch's filterBranches must be AND branches");
  if (parent !== undefined && parent !== 'OR' && type !== 'NOT_ALL' && type !== 'NOT_ANY')
    fail(typePath, `the filterBranches of a ${parent} branch must be NOT_ALL, NOT_ANY or ASSOCIATION branches`);
  return type as BranchType;
}

function arrayField(input: Record<string, unknown>, key: string, path: string): unknown[] {
  const value = input[key];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) return fail(join(path, key), `${key} must be an array`);
  return value;
}

function compileTree(
  input: unknown,
  lookup: PropertyLookup,
  searched: SearchedType,
  scopeOf: ((objectTypeId: string) => AssociatedScope | undefined) | undefined,
): CompiledListFilters {
  let root: { node: ListFilterNode; echo: Record<string, unknown> } | undefined;
  const associationBranches: NamedAssociationBranch[] = [];
  const properties = new Set<string>();
  let isTimeRelative = false;
  let filterCount = 0;
  const budget: FilterBudget = { textSearches: 0 };
  const listsNamed = new Map<string, string>();
  const associationsNamed: NamedAssociation[] = [];
  /** Every list named, in IN_LIST and ASSOCIATION filters: at most listFilterLimits.listsNamed. */
  const allNamed = new Set<string>();
  const countNamed = (listId: string, filterPath: string) => {
    if (allNamed.has(listId)) return;
    if (allNamed.size >= listFilterLimits.listsNamed)
      fail(
        join(filterPath, 'listId'),
        `a filterBranch names at most ${listFilterLimits.listsNamed} lists in IN_LIST and ASSOCIATION filters`,
      );
    allNamed.add(listId);
  };
  // An explicit stack: no depth of nesting reaches the call stack.
  const pending: PendingBranch[] = [
    {
      input,
      path: '',
      depth: 1,
      parent: undefined,
      place: (node, echo) => {
        // The root is an OR branch (branchTypeOf): never an ASSOCIATION one.
        if (node.type !== 'ASSOCIATED_BRANCH') root = { node, echo };
      },
    },
  ];
  while (pending.length > 0) {
    const { input: branch, path, depth, parent, place } = pending.pop() as PendingBranch;
    if (!isRecord(branch)) fail(path, 'a filter branch must be an object');
    const record = branch as Record<string, unknown>;
    if (depth > listFilterLimits.depth)
      fail(path, `filter branches nest at most ${listFilterLimits.depth} deep (the root OR is 1)`);
    if (record.filterBranchType === 'ASSOCIATION' && scopeOf && parent !== undefined && parent !== 'OR') {
      if (associationBranches.length >= listFilterLimits.associationBranches)
        fail(
          join(path, 'filterBranchType'),
          `a filterBranch holds at most ${listFilterLimits.associationBranches} ASSOCIATION branches`,
        );
      const compiled = compileAssociationBranch(record, path, scopeOf, (filter, filterPath, scope) => {
        filterCount += 1;
        if (filterCount > listFilterLimits.filters)
          fail(filterPath, `a filterBranch holds at most ${listFilterLimits.filters} filters in all`);
        if (!isRecord(filter)) fail(filterPath, 'a filter must be an object');
        const { filterType } = filter as Record<string, unknown>;
        if (filterType !== 'PROPERTY')
          fail(
            join(filterPath, 'filterType'),
            "an ASSOCIATION branch's filters are PROPERTY filters of its object type's records",
          );
        const property = compilePropertyFilter(
          filter as Record<string, unknown>,
          filterPath,
          scope.lookup,
          scope.searched,
          budget,
        );
        isTimeRelative ||= property.isTimeRelative;
        return property;
      });
      associationBranches.push(compiled.named);
      place(compiled.node, compiled.echo);
      continue;
    }
    const type = branchTypeOf(record, path, parent);
    const filters = arrayField(record, 'filters', path);
    const subBranches = arrayField(record, 'filterBranches', path);
    if (type === 'OR' && filters.length > 0)
      fail(`${join(path, 'filters')}[0]`, 'the root OR branch holds AND branches, not filters');
    if (type === 'OR' && subBranches.length === 0)
      fail(join(path, 'filterBranches'), 'the root OR branch needs at least one AND branch');
    const node: ListFilterNode = { type, branches: [] };
    const filterEchoes: Record<string, unknown>[] = [];
    filters.forEach((filter, index) => {
      const filterPath = `${join(path, 'filters')}[${index}]`;
      filterCount += 1;
      if (filterCount > listFilterLimits.filters)
        fail(filterPath, `a filterBranch holds at most ${listFilterLimits.filters} filters in all`);
      if (!isRecord(filter)) fail(filterPath, 'a filter must be an object');
      const { filterType } = filter as Record<string, unknown>;
      const typePath = join(filterPath, 'filterType');
      if (typeof filterType !== 'string') fail(typePath, 'filterType is required');
      if (unevaluatedFilterTypes.has(filterType as string))
        fail(
          typePath,
          `this service does not evaluate ${filterType} filters; it evaluates PROPERTY, IN_LIST and ASSOCIATION filters`,
        );
      if (filterType === 'IN_LIST') {
        const named = compileInListFilter(filter as Record<string, unknown>, filterPath);
        node.branches.push(named.leaf);
        filterEchoes.push(named.echo);
        countNamed(named.leaf.listId, filterPath);
        if (!listsNamed.has(named.leaf.listId)) listsNamed.set(named.leaf.listId, join(filterPath, 'listId'));
        return;
      }
      if (filterType === 'ASSOCIATION') {
        const { echo: associationEcho, ...named } = compileAssociationFilter(
          filter as Record<string, unknown>,
          filterPath,
        );
        node.branches.push(named.leaf);
        filterEchoes.push(associationEcho);
        countNamed(named.leaf.listId, filterPath);
        associationsNamed.push(named);
        return;
      }
      if (filterType !== 'PROPERTY')
        fail(typePath, `${JSON.stringify(String(filterType).slice(0, 64))} is not a filterType`);
      const compiled = compilePropertyFilter(filter as Record<string, unknown>, filterPath, lookup, searched, budget);
      node.branches.push(compiled.tree);
      filterEchoes.push(compiled.echo);
      properties.add(compiled.propertyName);
      isTimeRelative ||= compiled.isTimeRelative;
    });
    const echo: Record<string, unknown> = {
      filterBranchType: type,
      filterBranchOperator: type,
      filterBranches: new Array(subBranches.length),
      filters: filterEchoes,
    };
    const firstBranch = node.branches.length;
    node.branches.length = firstBranch + subBranches.length;
    place(node, echo);
    // Pushed last first, so siblings are checked in order and the first bad one is the one named.
    for (let index = subBranches.length - 1; index >= 0; index -= 1) {
      pending.push({
        input: subBranches[index],
        path: `${join(path, 'filterBranches')}[${index}]`,
        depth: depth + 1,
        parent: type,
        place: (child, childEcho) => {
          node.branches[firstBranch + index] = child;
          (echo.filterBranches as unknown[])[index] = childEcho;
        },
      });
    }
  }
  const compiled = root as { node: ListFilterNode; echo: Record<string, unknown> } | undefined;
  if (!compiled) return fail('', 'filterBranch is required');
  return {
    branch: compiled.echo,
    tree: compiled.node,
    properties: [...properties],
    isTimeRelative,
    listsNamed: [...listsNamed].map(([listId, path]) => ({ listId, path })),
    associationsNamed,
    associationBranches,
  };
}

/** Validates a filterBranch as HubSpot does and compiles it; throws ValidationError (shared/base/errors) naming the bad branch or filter by its path, e.g. context {filterBranch: ['filterBranches[0].filters[1].operation.operator']}. */
export function compileListFilters(
  input: unknown,
  lookup: PropertyLookup,
  searched: SearchedType,
  field = 'filterBranch',
  scopeOf?: (objectTypeId: string) => AssociatedScope | undefined,
): CompiledListFilters {
  try {
    if (!isRecord(input)) fail('', `${field} must be an object (an OR branch of AND branches)`);
    const chars = compactJsonLength(input, listFilterLimits.bodyChars);
    if (chars > listFilterLimits.bodyChars)
      fail('', `${field} is over ${listFilterLimits.bodyChars} characters as compact JSON`);
    return compileTree(input, lookup, searched, scopeOf);
  } catch (error) {
    if (!(error instanceof FilterError)) throw error;
    const named = error.path === '' ? field : `${field}.${error.path}`;
    throw new ValidationError(`${named}: ${error.message}`, { context: { [field]: [error.path || field] } });
  }
}

type Groups = FilterInput[][];

/** Never true: every record has an id. */
const neverGroups = (): Groups => [
  [
    { propertyName: 'hs_object_id', operator: 'HAS_PROPERTY' },
    { propertyName: 'hs_object_id', operator: 'NOT_HAS_PROPERTY' },
  ],
];

function inputOf(leaf: ListFilterLeaf, operator: SearchOperator, nowMs: number | undefined): FilterInput | undefined {
  const operandOf = (operand: ListFilterOperand | undefined): string | number | undefined => {
    if (operand === undefined || !isRelative(operand)) return operand;
    return nowMs === undefined ? undefined : instantAt(operand, nowMs);
  };
  const filter: FilterInput = { propertyName: leaf.propertyName, operator };
  if (leaf.value !== undefined) {
    const value = operandOf(leaf.value);
    if (value === undefined) return undefined;
    filter.value = value;
  }
  if (leaf.highValue !== undefined) {
    const highValue = operandOf(leaf.highValue);
    if (highValue === undefined) return undefined;
    filter.highValue = highValue;
  }
  if (leaf.values) filter.values = [...leaf.values];
  return filter;
}

const complements: Partial<Record<MatchOperator, SearchOperator>> = {
  EQ: 'NEQ',
  NEQ: 'EQ',
  LT: 'GTE',
  GTE: 'LT',
  LTE: 'GT',
  GT: 'LTE',
  IN: 'NOT_IN',
  NOT_IN: 'IN',
  HAS_PROPERTY: 'NOT_HAS_PROPERTY',
  NOT_HAS_PROPERTY: 'HAS_PROPERTY',
  CONTAINS_TOKEN: 'NOT_CONTAINS_TOKEN',
  NOT_CONTAINS_TOKEN: 'CONTAINS_TOKEN',
};

/** The groups of "the leaf's operator holds" (or, negated, fails) for a record with a value. */
function setValueGroups(leaf: ListFilterLeaf, isNegated: boolean, nowMs: number | undefined): Groups | undefined {
  const one = (operator: SearchOperator, operands: ListFilterLeaf = leaf): Groups | undefined => {
    const filter = inputOf(operands, operator, nowMs);
    return filter ? [[filter]] : undefined;
  };
  const outside = (): Groups | undefined => {
    const below = one('LT');
    const above = one('GT', { ...leaf, value: leaf.highValue });
    return below && above ? [...below, ...above] : undefined;
  };
  if (leaf.operator === 'BETWEEN') return isNegated ? outside() : one('BETWEEN');
  if (leaf.operator === 'NOT_BETWEEN') return isNegated ? one('BETWEEN') : outside();
  const complement = complements[leaf.operator];
  if (complement === undefined) return undefined;
  return one(isNegated ? complement : (leaf.operator as SearchOperator));
}

function product(left: Groups, right: Groups): Groups | undefined {
  if (left.length * right.length > listFilterLimits.searchGroups) return undefined;
  const groups: Groups = [];
  for (const a of left)
    for (const b of right) {
      if (a.length + b.length > listFilterLimits.searchGroups) return undefined;
      groups.push([...a, ...b]);
    }
  return groups;
}

function groupsOf(tree: ListFilterTree, isNegated: boolean, nowMs: number | undefined): Groups | undefined {
  // A membership is not a property: the search has no filter for it.
  if (tree.type === 'IN_LIST' || tree.type === 'ASSOCIATED_IN_LIST' || tree.type === 'ASSOCIATED_BRANCH')
    return undefined;
  if (tree.type === 'FILTER') {
    const present: FilterInput = { propertyName: tree.propertyName, operator: 'HAS_PROPERTY' };
    const set = setValueGroups(tree, isNegated, nowMs);
    if (!set) return undefined;
    const groups: Groups = set.map((group) => [present, ...group]);
    if (tree.whenUnset !== isNegated) groups.push([{ propertyName: tree.propertyName, operator: 'NOT_HAS_PROPERTY' }]);
    return groups;
  }
  const isChildNegated = isNegated !== (tree.type === 'NOT_ALL' || tree.type === 'NOT_ANY');
  const isConjunction = (tree.type === 'AND' || tree.type === 'NOT_ANY') !== isNegated;
  let groups: Groups = isConjunction ? [[]] : [];
  for (const branch of tree.branches) {
    const child = groupsOf(branch, isChildNegated, nowMs);
    if (!child) return undefined;
    const next = isConjunction ? product(groups, child) : [...groups, ...child];
    if (!next || next.length > listFilterLimits.searchGroups) return undefined;
    groups = next;
  }
  return groups;
}

/**
 * The tree as search filter groups at `nowMs` (relative dates resolved then), when every leaf is
 * expressible in the search API and the groups are at most listFilterLimits.searchGroups; else undefined.
 */
export function searchGroupsAt(tree: ListFilterTree, nowMs: number): { filters: FilterInput[] }[] | undefined {
  return searchGroupsWith(tree, nowMs);
}

function searchGroupsWith(tree: ListFilterTree, nowMs: number | undefined): { filters: FilterInput[] }[] | undefined {
  const groups = groupsOf(tree, false, nowMs);
  if (!groups) return undefined;
  return (groups.length === 0 ? neverGroups() : groups).map((filters) => ({ filters }));
}

/** The same tree as search filter groups (shared/search/search-request.ts FilterInput groups) when every leaf is expressible in the search API, else undefined: used by tests and by the evaluation job. */
export function searchGroupsOf(tree: ListFilterTree): { filters: FilterInput[] }[] | undefined {
  return searchGroupsWith(tree, undefined);
}
