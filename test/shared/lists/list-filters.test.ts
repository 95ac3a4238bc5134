import fc from 'fast-check';
import { ValidationError } from '../../../shared/base/errors';
import {
  compileListFilters,
  instantAt,
  listFilterLimits,
  listFilterMatcher,
  listFilterOperators,
  searchGroupsAt,
  searchGroupsOf,
  type ListFilterTree,
} from '../../../shared/lists/list-filters';
import { requireObjectType } from '../../../shared/objects/object-types';
import type { PropertyRules, PropertyType, FieldType } from '../../../shared/properties/property-definition';
import { standardRulesOf } from '../../../shared/properties/standard-catalogs';
import { type PropertyLookup, validatePropertyValues } from '../../../shared/properties/validate-property-values';
import { searchFormsOf } from '../../../shared/records/search-forms';
import { compileSearchMatch } from '../../../shared/search/match-search';
import { compileFilterGroups, searchOperators } from '../../../shared/search/search-request';

/**
 * List filters (shared/lists/list-filters.ts) on contacts: records are built from property values
 * and definitions by the real forms builder (validatePropertyValues, then searchFormsOf), and every
 * tree the search can express is matched by the search's own matcher too.
 */
const contacts = requireObjectType('contacts');
const standard = standardRulesOf(contacts);

const custom = (name: string, type: PropertyType, fieldType: FieldType, options: string[] = []): PropertyRules => ({
  name,
  type,
  fieldType,
  options: options.map((value, displayOrder) => ({ label: value, value, displayOrder, hidden: false })),
  externalOptions: false,
  hasUniqueValue: false,
  modificationMetadata: { archivable: true, readOnlyDefinition: false, readOnlyValue: false },
});
const customs = new Map(
  [
    custom('nickname', 'string', 'text'),
    custom('score', 'number', 'number'),
    custom('is_vip', 'bool', 'booleancheckbox', ['true', 'false']),
    custom('tier', 'enumeration', 'select', ['gold', 'silver', 'bronze']),
    custom('colors', 'enumeration', 'checkbox', ['red', 'green', 'blue']),
    custom('last_seen', 'datetime', 'date'),
    custom('renewal_date', 'date', 'date'),
  ].map((definition) => [definition.name, definition]),
);
const lookup: PropertyLookup = { find: (name) => customs.get(name) ?? standard.find(name) };

const nowMs = Date.parse('2024-06-15T00:00:00.000Z');

let nextId = 1_000_000_000_000_001;
const formsOf = (values: Record<string, string>) =>
  searchFormsOf(contacts, {
    id: String(nextId++),
    properties: validatePropertyValues(values, lookup),
    createdAt: '2024-01-01T00:00:00.000Z',
    updatedAt: '2024-01-02T00:00:00.000Z',
  });

const andBranch = (filters: unknown[], filterBranches: unknown[] = []) => ({
  filterBranchType: 'AND',
  filters,
  filterBranches,
});
const rootOf = (...ands: unknown[]) => ({ filterBranchType: 'OR', filters: [], filterBranches: ands });
const propertyFilter = (property: string, operation: Record<string, unknown>) => ({
  filterType: 'PROPERTY',
  property,
  operation,
});
const oneFilter = (property: string, operation: Record<string, unknown>) =>
  rootOf(andBranch([propertyFilter(property, operation)]));

const matcherOf = (branch: unknown, at = nowMs) =>
  listFilterMatcher(compileListFilters(branch, lookup, contacts).tree, at);

/** Property value of a record, or undefined for a record without one. */
type Value = string | undefined;
const recordWith = (property: string, value: Value) => formsOf(value === undefined ? {} : { [property]: value });

interface OperatorCase {
  property: string;
  operation: Record<string, unknown>;
  passes: Value[];
  fails: Value[];
}

const day = (iso: string) => iso;
const at = (iso: string) => Date.parse(iso);

const operatorCases: OperatorCase[] = [
  // STRING: case-insensitive, as the search compares strings.
  {
    property: 'nickname',
    operation: { operationType: 'STRING', operator: 'IS_EQUAL_TO', value: 'Ada' },
    passes: ['ada', 'ADA'],
    fails: ['adam', undefined],
  },
  {
    property: 'nickname',
    operation: { operationType: 'STRING', operator: 'IS_NOT_EQUAL_TO', value: 'Ada' },
    passes: ['Bob'],
    fails: ['ADA', undefined],
  },
  {
    property: 'nickname',
    operation: { operationType: 'STRING', operator: 'CONTAINS', value: 'DA' },
    passes: ['Adam', 'Linda'],
    fails: ['Bob', undefined],
  },
  {
    property: 'nickname',
    operation: { operationType: 'STRING', operator: 'DOES_NOT_CONTAIN', value: 'da' },
    passes: ['Bob'],
    fails: ['Adam', undefined],
  },
  {
    property: 'nickname',
    operation: { operationType: 'STRING', operator: 'STARTS_WITH', value: 'Ad' },
    passes: ['adam'],
    fails: ['Madam', undefined],
  },
  {
    property: 'nickname',
    operation: { operationType: 'STRING', operator: 'ENDS_WITH', value: 'am' },
    passes: ['ADAM'],
    fails: ['amy', undefined],
  },
  // MULTISTRING: any of the values (none of them, for the negative operators).
  {
    property: 'nickname',
    operation: { operationType: 'MULTISTRING', operator: 'IS_EQUAL_TO', values: ['Ada', 'Bob'] },
    passes: ['ada', 'BOB'],
    fails: ['adam', undefined],
  },
  {
    property: 'nickname',
    operation: { operationType: 'MULTISTRING', operator: 'IS_NOT_EQUAL_TO', values: ['Ada', 'Bob'] },
    passes: ['Carl'],
    fails: ['ada', 'bob', undefined],
  },
  {
    property: 'nickname',
    operation: { operationType: 'MULTISTRING', operator: 'CONTAINS', values: ['da', 'ob'] },
    passes: ['Linda', 'Bobby'],
    fails: ['Carl', undefined],
  },
  {
    property: 'nickname',
    operation: { operationType: 'MULTISTRING', operator: 'DOES_NOT_CONTAIN', values: ['da', 'ob'] },
    passes: ['Carl'],
    fails: ['Linda', 'bob', undefined],
  },
  {
    property: 'nickname',
    operation: { operationType: 'MULTISTRING', operator: 'CONTAINS_EXACTLY', values: ['ada', 'bob'] },
    passes: ['Ada Lovelace', 'bob'],
    fails: ['Adam', 'Bobby', undefined],
  },
  {
    property: 'nickname',
    operation: { operationType: 'MULTISTRING', operator: 'DOES_NOT_CONTAIN_EXACTLY', values: ['ada', 'bob'] },
    passes: ['Adam', 'Bobby'],
    fails: ['Ada Lovelace', 'bob', undefined],
  },
  {
    property: 'nickname',
    operation: { operationType: 'MULTISTRING', operator: 'STARTS_WITH', values: ['Ad', 'Bo'] },
    passes: ['adam', 'Bobby'],
    fails: ['Carl', 'Madam', undefined],
  },
  {
    property: 'nickname',
    operation: { operationType: 'MULTISTRING', operator: 'ENDS_WITH', values: ['am', 'by'] },
    passes: ['Adam', 'Bobby'],
    fails: ['Amy', undefined],
  },
  // NUMBER: numerically, not as text.
  {
    property: 'score',
    operation: { operationType: 'NUMBER', operator: 'IS_EQUAL_TO', value: 10 },
    passes: ['10', '10.0'],
    fails: ['9', '100', undefined],
  },
  {
    property: 'score',
    operation: { operationType: 'NUMBER', operator: 'IS_NOT_EQUAL_TO', value: 10 },
    passes: ['9'],
    fails: ['10', undefined],
  },
  {
    property: 'score',
    operation: { operationType: 'NUMBER', operator: 'IS_GREATER_THAN', value: 10 },
    passes: ['10.5', '100'],
    fails: ['10', '9', undefined],
  },
  {
    property: 'score',
    operation: { operationType: 'NUMBER', operator: 'IS_GREATER_THAN_OR_EQUAL_TO', value: 10 },
    passes: ['10', '11'],
    fails: ['9.99', undefined],
  },
  {
    property: 'score',
    operation: { operationType: 'NUMBER', operator: 'IS_LESS_THAN', value: 10 },
    passes: ['-3', '9'],
    fails: ['10', '100', undefined],
  },
  {
    property: 'score',
    operation: { operationType: 'NUMBER', operator: 'IS_LESS_THAN_OR_EQUAL_TO', value: 10 },
    passes: ['10', '2'],
    fails: ['11', undefined],
  },
  // BOOL
  {
    property: 'is_vip',
    operation: { operationType: 'BOOL', operator: 'IS_EQUAL_TO', value: true },
    passes: ['true', 'TRUE'],
    fails: ['false', undefined],
  },
  {
    property: 'is_vip',
    operation: { operationType: 'BOOL', operator: 'IS_NOT_EQUAL_TO', value: true },
    passes: ['false'],
    fails: ['true', undefined],
  },
  // ENUMERATION, single select: exact option values.
  {
    property: 'tier',
    operation: { operationType: 'ENUMERATION', operator: 'IS_ANY_OF', values: ['gold', 'silver'] },
    passes: ['gold', 'silver'],
    fails: ['bronze', undefined],
  },
  {
    property: 'tier',
    operation: { operationType: 'ENUMERATION', operator: 'IS_NONE_OF', values: ['gold'] },
    passes: ['silver'],
    fails: ['gold', undefined],
  },
  {
    property: 'tier',
    operation: { operationType: 'ENUMERATION', operator: 'IS_EXACTLY', values: ['gold'] },
    passes: ['gold'],
    fails: ['silver', undefined],
  },
  {
    property: 'tier',
    operation: { operationType: 'ENUMERATION', operator: 'IS_EXACTLY', values: ['gold', 'silver'] },
    passes: [],
    fails: ['gold', 'silver', undefined],
  },
  {
    property: 'tier',
    operation: { operationType: 'ENUMERATION', operator: 'IS_NOT_EXACTLY', values: ['gold'] },
    passes: ['silver'],
    fails: ['gold', undefined],
  },
  {
    property: 'tier',
    operation: { operationType: 'ENUMERATION', operator: 'CONTAINS_ALL', values: ['gold'] },
    passes: ['gold'],
    fails: ['silver', undefined],
  },
  {
    property: 'tier',
    operation: { operationType: 'ENUMERATION', operator: 'DOES_NOT_CONTAIN_ALL', values: ['gold'] },
    passes: ['silver'],
    fails: ['gold', undefined],
  },
  // ENUMERATION, multiple checkboxes: the options a value holds (joined by ';'), in any order.
  {
    property: 'colors',
    operation: { operationType: 'ENUMERATION', operator: 'IS_ANY_OF', values: ['red', 'blue'] },
    passes: ['red;green', 'blue'],
    fails: ['green', undefined],
  },
  {
    property: 'colors',
    operation: { operationType: 'ENUMERATION', operator: 'IS_NONE_OF', values: ['red'] },
    passes: ['green;blue'],
    fails: ['blue;red', undefined],
  },
  {
    property: 'colors',
    operation: { operationType: 'ENUMERATION', operator: 'IS_EXACTLY', values: ['red', 'green'] },
    passes: ['green;red', 'red;green'],
    fails: ['red', 'red;green;blue', undefined],
  },
  {
    property: 'colors',
    operation: { operationType: 'ENUMERATION', operator: 'IS_NOT_EXACTLY', values: ['red', 'green'] },
    passes: ['red', 'red;green;blue'],
    fails: ['green;red', undefined],
  },
  {
    property: 'colors',
    operation: { operationType: 'ENUMERATION', operator: 'CONTAINS_ALL', values: ['red', 'green'] },
    passes: ['red;green;blue', 'green;red'],
    fails: ['red;blue', undefined],
  },
  {
    property: 'colors',
    operation: { operationType: 'ENUMERATION', operator: 'DOES_NOT_CONTAIN_ALL', values: ['red', 'green'] },
    passes: ['red;blue', 'blue'],
    fails: ['green;red', undefined],
  },
  // ALL_PROPERTY
  {
    property: 'nickname',
    operation: { operationType: 'ALL_PROPERTY', operator: 'IS_KNOWN' },
    passes: ['x'],
    fails: [undefined],
  },
  {
    property: 'nickname',
    operation: { operationType: 'ALL_PROPERTY', operator: 'IS_UNKNOWN' },
    passes: [undefined],
    fails: ['x'],
  },
  {
    property: 'score',
    operation: { operationType: 'ALL_PROPERTY', operator: 'IS_KNOWN' },
    passes: ['0'],
    fails: [undefined],
  },
  // DATETIME: before or after the instant, never at it.
  {
    property: 'last_seen',
    operation: { operationType: 'DATETIME', operator: 'IS_BEFORE', timestamp: at('2024-06-01T12:00:00Z') },
    passes: ['2024-06-01T11:59:59.999Z', '2023-01-01T00:00:00Z'],
    fails: ['2024-06-01T12:00:00Z', '2024-06-02T00:00:00Z', undefined],
  },
  {
    property: 'last_seen',
    operation: { operationType: 'DATETIME', operator: 'IS_AFTER', timestamp: at('2024-06-01T12:00:00Z') },
    passes: ['2024-06-01T12:00:00.001Z'],
    fails: ['2024-06-01T12:00:00Z', undefined],
  },
  {
    property: 'renewal_date',
    operation: { operationType: 'DATETIME', operator: 'IS_AFTER', timestamp: at('2024-06-01T00:00:00Z') },
    passes: [day('2024-06-02')],
    fails: [day('2024-06-01'), undefined],
  },
  // RANGED_DATE and NUMBER_RANGED: bounds included.
  {
    property: 'last_seen',
    operation: {
      operationType: 'RANGED_DATE',
      operator: 'IS_BETWEEN',
      lowerBound: at('2024-06-01T00:00:00Z'),
      upperBound: at('2024-06-30T00:00:00Z'),
    },
    passes: ['2024-06-01T00:00:00Z', '2024-06-15T08:00:00Z', '2024-06-30T00:00:00Z'],
    fails: ['2024-05-31T23:59:59Z', '2024-06-30T00:00:00.001Z', undefined],
  },
  {
    property: 'renewal_date',
    operation: {
      operationType: 'RANGED_DATE',
      operator: 'IS_NOT_BETWEEN',
      lowerBound: at('2024-06-01T00:00:00Z'),
      upperBound: at('2024-06-30T00:00:00Z'),
    },
    passes: [day('2024-05-31'), day('2024-07-01')],
    fails: [day('2024-06-01'), day('2024-06-30'), undefined],
  },
  {
    property: 'score',
    operation: { operationType: 'NUMBER_RANGED', operator: 'IS_BETWEEN', lowerBound: 1, upperBound: 5 },
    passes: ['1', '3.5', '5'],
    fails: ['0.9', '6', undefined],
  },
  {
    property: 'score',
    operation: { operationType: 'NUMBER_RANGED', operator: 'IS_NOT_BETWEEN', lowerBound: 1, upperBound: 5 },
    passes: ['0', '-10', '6'],
    fails: ['1', '3', '5', undefined],
  },
  // ROLLING_DATE_RANGE at 2024-06-15T00:00Z: days of 24 hours from now, bounds included.
  {
    property: 'last_seen',
    operation: { operationType: 'ROLLING_DATE_RANGE', operator: 'IS_LESS_THAN_X_DAYS_AGO', numberOfDays: 7 },
    passes: ['2024-06-08T00:00:00Z', '2024-06-10T00:00:00Z', '2024-06-15T00:00:00Z'],
    fails: ['2024-06-07T23:59:59Z', '2024-06-15T00:00:01Z', undefined],
  },
  {
    property: 'last_seen',
    operation: { operationType: 'ROLLING_DATE_RANGE', operator: 'IS_MORE_THAN_X_DAYS_AGO', numberOfDays: 7 },
    passes: ['2024-06-07T23:59:59Z', '2020-01-01T00:00:00Z'],
    fails: ['2024-06-08T00:00:00Z', undefined],
  },
  {
    property: 'last_seen',
    operation: { operationType: 'ROLLING_DATE_RANGE', operator: 'IS_LESS_THAN_X_DAYS_FROM_NOW', numberOfDays: 7 },
    passes: ['2024-06-15T00:00:00Z', '2024-06-20T00:00:00Z', '2024-06-22T00:00:00Z'],
    fails: ['2024-06-14T23:59:59Z', '2024-06-22T00:00:01Z', undefined],
  },
  {
    property: 'renewal_date',
    operation: { operationType: 'ROLLING_DATE_RANGE', operator: 'IS_MORE_THAN_X_DAYS_FROM_NOW', numberOfDays: 7 },
    passes: [day('2024-06-23')],
    fails: [day('2024-06-22'), day('2024-06-01'), undefined],
  },
  // TIME_POINT: DATE points in their zone, INDEXED points from now or today; endpoints excluded unless INCLUSIVE.
  {
    property: 'renewal_date',
    operation: {
      operationType: 'TIME_POINT',
      type: 'TIME_POINT',
      operator: 'IS_BEFORE',
      timePoint: { timeType: 'DATE', year: 2024, month: 6, day: 15, zoneId: 'UTC' },
    },
    passes: [day('2024-06-14')],
    fails: [day('2024-06-15'), undefined],
  },
  {
    property: 'renewal_date',
    operation: {
      operationType: 'TIME_POINT',
      type: 'TIME_POINT',
      operator: 'IS_BEFORE',
      endpointBehavior: 'INCLUSIVE',
      timePoint: { timeType: 'DATE', year: 2024, month: 6, day: 15, zoneId: 'UTC' },
    },
    passes: [day('2024-06-15')],
    fails: [day('2024-06-16')],
  },
  {
    property: 'last_seen',
    operation: {
      operationType: 'TIME_POINT',
      type: 'TIME_POINT',
      operator: 'IS_AFTER',
      timePoint: { timeType: 'DATE', year: 2024, month: 6, day: 15, zoneId: 'America/New_York' },
    },
    passes: ['2024-06-15T04:00:01Z'],
    fails: ['2024-06-15T03:59:59Z', '2024-06-15T04:00:00Z', undefined],
  },
  {
    property: 'last_seen',
    operation: {
      operationType: 'TIME_POINT',
      type: 'TIME_POINT',
      operator: 'IS_AFTER',
      timePoint: {
        timeType: 'INDEXED',
        indexReference: { referenceType: 'TODAY', hour: 9 },
        offset: { days: -1 },
        zoneId: 'UTC',
      },
    },
    passes: ['2024-06-14T09:00:01Z'],
    fails: ['2024-06-14T08:59:59Z', undefined],
  },
  {
    property: 'last_seen',
    operation: {
      operationType: 'TIME_POINT',
      type: 'TIME_POINT',
      operator: 'IS_BEFORE',
      timePoint: {
        timeType: 'INDEXED',
        indexReference: { referenceType: 'NOW' },
        offset: { months: -1 },
        zoneId: 'UTC',
      },
    },
    passes: ['2024-05-14T23:59:59Z'],
    fails: ['2024-05-15T00:00:00Z', undefined],
  },
  {
    property: 'last_seen',
    operation: {
      operationType: 'TIME_POINT',
      type: 'TIME_POINT',
      operator: 'IS_BEFORE',
      timePoint: { timeType: 'DATE', year: 50, month: 3, day: 1, zoneId: 'UTC' },
    },
    passes: ['0049-12-31T00:00:00Z'],
    fails: ['0050-03-01T00:00:00Z', '1950-01-01T00:00:00Z'],
  },
  {
    property: 'last_seen',
    operation: {
      operationType: 'TIME_POINT',
      type: 'TIME_POINT',
      operator: 'IS_AFTER',
      timePoint: {
        timeType: 'INDEXED',
        indexReference: { referenceType: 'TODAY' },
        offset: { months: -1 },
        zoneId: 'America/New_York',
      },
    },
    passes: ['2024-05-14T04:00:01Z'],
    fails: ['2024-05-14T03:59:59Z'],
  },
  // TIME_RANGED: endpoints included unless EXCLUSIVE.
  {
    property: 'last_seen',
    operation: {
      operationType: 'TIME_RANGED',
      type: 'TIME_RANGED',
      operator: 'IS_BETWEEN',
      lowerBoundTimePoint: {
        timeType: 'INDEXED',
        indexReference: { referenceType: 'NOW' },
        offset: { days: -1 },
        zoneId: 'UTC',
      },
      upperBoundTimePoint: { timeType: 'INDEXED', indexReference: { referenceType: 'NOW' }, zoneId: 'UTC' },
    },
    passes: ['2024-06-14T00:00:00Z', '2024-06-14T23:00:00Z', '2024-06-15T00:00:00Z'],
    fails: ['2024-06-13T23:00:00Z', '2024-06-15T00:00:01Z', undefined],
  },
  {
    property: 'last_seen',
    operation: {
      operationType: 'TIME_RANGED',
      type: 'TIME_RANGED',
      operator: 'IS_BETWEEN',
      lowerBoundEndpointBehavior: 'EXCLUSIVE',
      lowerBoundTimePoint: { timeType: 'DATE', year: 2024, month: 6, day: 14, zoneId: 'UTC' },
      upperBoundTimePoint: { timeType: 'DATE', year: 2024, month: 6, day: 15, zoneId: 'UTC' },
    },
    passes: ['2024-06-14T00:00:00.001Z', '2024-06-15T00:00:00Z'],
    fails: ['2024-06-14T00:00:00Z', undefined],
  },
  {
    property: 'last_seen',
    operation: {
      operationType: 'TIME_RANGED',
      type: 'TIME_RANGED',
      operator: 'IS_NOT_BETWEEN',
      lowerBoundTimePoint: { timeType: 'DATE', year: 2024, month: 6, day: 14, zoneId: 'UTC' },
      upperBoundTimePoint: { timeType: 'DATE', year: 2024, month: 6, day: 15, zoneId: 'UTC' },
    },
    passes: ['2024-06-13T23:59:59Z', '2024-06-15T00:00:01Z'],
    fails: ['2024-06-14T00:00:00Z', '2024-06-15T00:00:00Z', undefined],
  },
  {
    property: 'last_seen',
    operation: {
      operationType: 'TIME_RANGED',
      type: 'TIME_RANGED',
      operator: 'IS_NOT_BETWEEN',
      upperBoundEndpointBehavior: 'EXCLUSIVE',
      lowerBoundTimePoint: { timeType: 'DATE', year: 2024, month: 6, day: 14, zoneId: 'UTC' },
      upperBoundTimePoint: { timeType: 'DATE', year: 2024, month: 6, day: 15, zoneId: 'UTC' },
    },
    passes: ['2024-06-15T00:00:00Z'],
    fails: ['2024-06-14T00:00:00Z', undefined],
  },
];

const caseName = ({ property, operation }: OperatorCase) =>
  `${operation.operationType} ${operation.operator} on ${property} ${JSON.stringify(operation.value ?? operation.values ?? operation.timestamp ?? operation.lowerBound ?? operation.numberOfDays ?? operation.timePoint ?? operation.lowerBoundTimePoint ?? '')}`;

describe('listFilterMatcher, operator by operator', () => {
  it.each(operatorCases.map((entry) => [caseName(entry), entry] as const))('%s', (_name, entry) => {
    const matches = matcherOf(oneFilter(entry.property, entry.operation));

    expect(entry.passes.map((value) => matches(recordWith(entry.property, value)))).toEqual(
      entry.passes.map(() => true),
    );
    expect(entry.fails.map((value) => matches(recordWith(entry.property, value)))).toEqual(
      entry.fails.map(() => false),
    );
  });

  it('covers every operator of every operationType it accepts', () => {
    const covered = new Set(operatorCases.map(({ operation }) => `${operation.operationType} ${operation.operator}`));
    const accepted = Object.entries(listFilterOperators).flatMap(([type, operators]) =>
      operators.map((operator) => `${type} ${operator}`),
    );

    expect(accepted.filter((name) => !covered.has(name))).toEqual([]);
  });
});

describe('includeObjectsWithNoValueSet', () => {
  const withNoValue = (operation: Record<string, unknown>) => ({ ...operation, includeObjectsWithNoValueSet: true });

  it.each(
    operatorCases
      .filter((entry) => entry.operation.operationType !== 'ALL_PROPERTY')
      .map((entry) => [caseName(entry), entry] as const),
  )('passes a record without a value, and changes nothing for one with a value: %s', (_name, entry) => {
    const matches = matcherOf(oneFilter(entry.property, withNoValue(entry.operation)));

    expect(matches(recordWith(entry.property, undefined))).toBe(true);
    const withValues = [...entry.passes, ...entry.fails].filter((value) => value !== undefined);
    expect(withValues.map((value) => matches(recordWith(entry.property, value)))).toEqual(
      withValues.map((value) => entry.passes.includes(value)),
    );
  });

  it('makes IS_KNOWN pass a record without the property, and leaves IS_UNKNOWN as it is', () => {
    const known = matcherOf(
      oneFilter('nickname', withNoValue({ operationType: 'ALL_PROPERTY', operator: 'IS_KNOWN' })),
    );
    const unknown = matcherOf(
      oneFilter('nickname', withNoValue({ operationType: 'ALL_PROPERTY', operator: 'IS_UNKNOWN' })),
    );

    expect([known(formsOf({})), unknown(formsOf({})), unknown(formsOf({ nickname: 'x' }))]).toEqual([
      true,
      true,
      false,
    ]);
  });
});

describe('branches', () => {
  const ada = propertyFilter('nickname', { operationType: 'STRING', operator: 'IS_EQUAL_TO', value: 'ada' });
  const highScore = propertyFilter('score', { operationType: 'NUMBER', operator: 'IS_GREATER_THAN', value: 5 });
  const records = {
    both: formsOf({ nickname: 'Ada', score: '9' }),
    adaOnly: formsOf({ nickname: 'Ada', score: '1' }),
    scoreOnly: formsOf({ nickname: 'Bob', score: '9' }),
    neither: formsOf({}),
  };
  const answers = (branch: unknown) => {
    const matches = matcherOf(branch);
    return Object.fromEntries(Object.entries(records).map(([name, forms]) => [name, matches(forms)]));
  };

  it('ANDs the filters of an AND branch and ORs the AND branches of the root', () => {
    expect(answers(rootOf(andBranch([ada, highScore])))).toEqual({
      both: true,
      adaOnly: false,
      scoreOnly: false,
      neither: false,
    });
    expect(answers(rootOf(andBranch([ada]), andBranch([highScore])))).toEqual({
      both: true,
      adaOnly: true,
      scoreOnly: true,
      neither: false,
    });
  });

  it('passes a record a NOT_ALL branch does not wholly accept', () => {
    const branch = rootOf(
      andBranch([], [{ filterBranchType: 'NOT_ALL', filters: [ada, highScore], filterBranches: [] }]),
    );

    expect(answers(branch)).toEqual({ both: false, adaOnly: true, scoreOnly: true, neither: true });
  });

  it('passes a record no filter of a NOT_ANY branch accepts', () => {
    const branch = rootOf(
      andBranch([], [{ filterBranchType: 'NOT_ANY', filters: [ada, highScore], filterBranches: [] }]),
    );

    expect(answers(branch)).toEqual({ both: false, adaOnly: false, scoreOnly: false, neither: true });
  });

  it('nests NOT_ALL and NOT_ANY branches: not (Ada and not (score > 5))', () => {
    const inner = { filterBranchType: 'NOT_ANY', filters: [highScore], filterBranches: [] };
    const branch = rootOf(andBranch([], [{ filterBranchType: 'NOT_ALL', filters: [ada], filterBranches: [inner] }]));

    expect(answers(branch)).toEqual({ both: true, adaOnly: false, scoreOnly: true, neither: true });
  });

  it('matches every record with an AND branch without filters', () => {
    expect(answers(rootOf(andBranch([])))).toEqual({ both: true, adaOnly: true, scoreOnly: true, neither: true });
  });
});

describe('instantAt', () => {
  it('moves today by calendar months to the last day of a shorter month', () => {
    expect(instantAt({ reference: 'TODAY', zoneId: 'UTC', offset: { months: 1 } }, at('2024-01-31T15:00:00Z'))).toBe(
      at('2024-02-29T00:00:00Z'),
    );
  });

  it('reads today and its time of day in the zone, across a change to summer time', () => {
    const operand = {
      reference: 'TODAY' as const,
      zoneId: 'Europe/Berlin',
      time: { hour: 12, minute: 0, second: 0, millisecond: 0 },
      offset: { days: 1 },
    };

    expect(instantAt(operand, at('2024-03-30T23:30:00Z'))).toBe(at('2024-04-01T10:00:00Z'));
  });
});

describe('compileListFilters, what it answers', () => {
  it('echoes each branch with filterBranchOperator and each operation with includeObjectsWithNoValueSet, in order', () => {
    const compiled = compileListFilters(
      {
        filterBranchType: 'OR',
        filterBranches: [
          {
            filterBranchType: 'AND',
            filters: [
              {
                filterType: 'PROPERTY',
                property: 'score',
                operation: { operationType: 'NUMBER', operator: 'IS_EQUAL_TO', value: 3, extra: 1 },
              },
            ],
            filterBranches: [
              { filterBranchType: 'NOT_ANY', filters: [], filterBranches: [] },
              { filterBranchType: 'NOT_ALL', filters: [], filterBranches: [] },
            ],
          },
          { filterBranchType: 'AND', filters: [] },
        ],
      },
      lookup,
      contacts,
    );

    expect(compiled.branch).toEqual({
      filterBranchType: 'OR',
      filterBranchOperator: 'OR',
      filters: [],
      filterBranches: [
        {
          filterBranchType: 'AND',
          filterBranchOperator: 'AND',
          filters: [
            {
              filterType: 'PROPERTY',
              property: 'score',
              operation: {
                operationType: 'NUMBER',
                operator: 'IS_EQUAL_TO',
                value: 3,
                includeObjectsWithNoValueSet: false,
              },
            },
          ],
          filterBranches: [
            { filterBranchType: 'NOT_ANY', filterBranchOperator: 'NOT_ANY', filters: [], filterBranches: [] },
            { filterBranchType: 'NOT_ALL', filterBranchOperator: 'NOT_ALL', filters: [], filterBranches: [] },
          ],
        },
        { filterBranchType: 'AND', filterBranchOperator: 'AND', filters: [], filterBranches: [] },
      ],
    });
  });

  it('names every property read, once, and says when a filter compares with now', () => {
    const fixed = compileListFilters(
      rootOf(
        andBranch([
          propertyFilter('email', { operationType: 'STRING', operator: 'CONTAINS', value: '@' }),
          propertyFilter('score', { operationType: 'NUMBER', operator: 'IS_LESS_THAN', value: 3 }),
        ]),
        andBranch([propertyFilter('email', { operationType: 'ALL_PROPERTY', operator: 'IS_KNOWN' })]),
      ),
      lookup,
      contacts,
    );
    const rolling = compileListFilters(
      oneFilter('last_seen', {
        operationType: 'ROLLING_DATE_RANGE',
        operator: 'IS_MORE_THAN_X_DAYS_AGO',
        numberOfDays: 3,
      }),
      lookup,
      contacts,
    );

    expect([fixed.properties, fixed.isTimeRelative, rolling.properties, rolling.isTimeRelative]).toEqual([
      ['email', 'score'],
      false,
      ['last_seen'],
      true,
    ]);
  });

  it('gives a tree that survives JSON and matches as before', () => {
    const { tree } = compileListFilters(
      oneFilter('last_seen', {
        operationType: 'ROLLING_DATE_RANGE',
        operator: 'IS_LESS_THAN_X_DAYS_AGO',
        numberOfDays: 2,
      }),
      lookup,
      contacts,
    );
    const stored = JSON.parse(JSON.stringify(tree)) as ListFilterTree;
    const record = formsOf({ last_seen: '2024-06-14T00:00:00Z' });

    expect(stored).toEqual(tree);
    expect([
      listFilterMatcher(stored, nowMs)(record),
      listFilterMatcher(stored, nowMs + 3 * 86_400_000)(record),
    ]).toEqual([true, false]);
  });

  it('leaves the internal operators out of what the search API accepts', () => {
    expect(
      searchOperators.filter((operator) => ['STARTS_WITH', 'CONTAINS', 'SET_EQ', 'NOT_BETWEEN'].includes(operator)),
    ).toEqual([]);
  });
});

describe('compileListFilters, the 400s', () => {
  const stringFilter = propertyFilter('nickname', { operationType: 'STRING', operator: 'IS_EQUAL_TO', value: 'x' });
  const inAnd = (filter: unknown) => rootOf(andBranch([stringFilter, filter]));
  const withOperation = (property: string, operation: Record<string, unknown>) =>
    inAnd(propertyFilter(property, operation));
  const filterPath = 'filterBranches[0].filters[1]';
  const nested = (depth: number): unknown => {
    let branch: unknown = { filterBranchType: 'NOT_ALL', filters: [stringFilter], filterBranches: [] };
    for (let level = 3; level < depth; level += 1)
      branch = { filterBranchType: 'NOT_ANY', filters: [], filterBranches: [branch] };
    return rootOf(andBranch([], [branch]));
  };

  const cases: [string, unknown, string, RegExp][] = [
    ['a filterBranch that is not an object', [], 'filterBranch', /must be an object/],
    ['a root that is not OR', andBranch([stringFilter]), 'filterBranchType', /root filterBranch must be an OR/],
    [
      'filters on the root',
      { filterBranchType: 'OR', filters: [stringFilter], filterBranches: [andBranch([])] },
      'filters[0]',
      /holds AND branches/,
    ],
    ['a root without AND branches', rootOf(), 'filterBranches', /at least one AND/],
    [
      'an OR under the root',
      rootOf(andBranch([]), { filterBranchType: 'OR', filters: [], filterBranches: [] }),
      'filterBranches[1].filterBranchType',
      /must be AND/,
    ],
    [
      'an AND inside an AND',
      rootOf(andBranch([], [andBranch([])])),
      'filterBranches[0].filterBranches[0].filterBranchType',
      /NOT_ALL, NOT_ANY or ASSOCIATION/,
    ],
    [
      'an ASSOCIATION branch',
      rootOf(
        andBranch(
          [],
          [
            {
              filterBranchType: 'ASSOCIATION',
              filters: [],
              filterBranches: [],
              objectTypeId: '0-2',
              operator: 'IN_LIST',
            },
          ],
        ),
      ),
      'filterBranches[0].filterBranches[0].filterBranchType',
      /does not evaluate ASSOCIATION/,
    ],
    [
      'a UNIFIED_EVENTS branch',
      rootOf({
        filterBranchType: 'UNIFIED_EVENTS',
        filters: [],
        filterBranches: [],
        eventTypeId: '4-1',
        operator: 'HAS_COMPLETED',
      }),
      'filterBranches[0].filterBranchType',
      /does not evaluate UNIFIED_EVENTS/,
    ],
    [
      'a RESTRICTED branch',
      rootOf(andBranch([], [{ filterBranchType: 'RESTRICTED', filters: [], filterBranches: [] }])),
      'filterBranches[0].filterBranches[0].filterBranchType',
      /does not evaluate RESTRICTED/,
    ],
    [
      'an unknown branch type',
      rootOf(andBranch([], [{ filterBranchType: 'XOR', filters: [] }])),
      'filterBranches[0].filterBranches[0].filterBranchType',
      /not a filterBranchType/,
    ],
    ['a branch that is not an object', rootOf(andBranch([]), 'AND'), 'filterBranches[1]', /must be an object/],
    [
      'filters that are not an array',
      rootOf({ filterBranchType: 'AND', filters: {} }),
      'filterBranches[0].filters',
      /must be an array/,
    ],
    [
      `branches deeper than ${listFilterLimits.depth}`,
      nested(listFilterLimits.depth + 1),
      `filterBranches[0]${'.filterBranches[0]'.repeat(listFilterLimits.depth - 1)}`,
      /nest at most/,
    ],
    ...['PAGE_VIEW', 'FORM_SUBMISSION', 'EMAIL_EVENT', 'CONSTANT', 'UNIFIED_EVENTS', 'CTA'].map(
      (filterType): [string, unknown, string, RegExp] => [
        `a ${filterType} filter`,
        inAnd({ filterType, listId: '1' }),
        `${filterPath}.filterType`,
        new RegExp(`does not evaluate ${filterType} filters`),
      ],
    ),
    ['an unknown filterType', inAnd({ filterType: 'BOGUS' }), `${filterPath}.filterType`, /not a filterType/],
    [
      'an ASSOCIATION filter without an operator',
      inAnd({ filterType: 'ASSOCIATION', listId: '1' }),
      `${filterPath}.operator`,
      /operator must be IN_LIST or NOT_IN_LIST/,
    ],
    [
      'an ASSOCIATION filter refined by SET_OCCURRENCES',
      inAnd({
        filterType: 'ASSOCIATION',
        listId: '1',
        operator: 'IN_LIST',
        associationTypeId: 279,
        associationCategory: 'HUBSPOT_DEFINED',
        coalescingRefineBy: { type: 'SET_OCCURRENCES', setType: 'ANY' },
      }),
      `${filterPath}.coalescingRefineBy.type`,
      /does not evaluate SET_OCCURRENCES refinements/,
    ],
    [
      'an IN_LIST filter without a listId',
      inAnd({ filterType: 'IN_LIST', operator: 'IN_LIST' }),
      `${filterPath}.listId`,
      /listId is required/,
    ],
    [
      'an IN_LIST filter whose listId is not digits',
      inAnd({ filterType: 'IN_LIST', listId: 'abc', operator: 'IN_LIST' }),
      `${filterPath}.listId`,
      /listId is required/,
    ],
    [
      'an IN_LIST filter with another operator',
      inAnd({ filterType: 'IN_LIST', listId: '7', operator: 'IS_EQUAL_TO' }),
      `${filterPath}.operator`,
      /IN_LIST or NOT_IN_LIST/,
    ],
    [
      'an IN_LIST filter of a workflow list (metadata)',
      inAnd({ filterType: 'IN_LIST', listId: '7', operator: 'IN_LIST', metadata: { id: '3', inListType: 'IMPORT' } }),
      `${filterPath}.metadata`,
      /workflow, import or dataset lists \(IMPORT\)/,
    ],
    [
      `IN_LIST filters naming more than ${listFilterLimits.listsNamed} lists`,
      rootOf(
        andBranch(
          Array.from({ length: listFilterLimits.listsNamed + 1 }, (_, index) => ({
            filterType: 'IN_LIST',
            listId: String(100 + index),
            operator: 'IN_LIST',
          })),
        ),
      ),
      `filterBranches[0].filters[${listFilterLimits.listsNamed}].listId`,
      /at most 10 lists/,
    ],
    ['a filter that is not an object', inAnd(7), filterPath, /must be an object/],
    [
      'a filter without a property',
      inAnd({ filterType: 'PROPERTY', operation: {} }),
      `${filterPath}.property`,
      /property is required/,
    ],
    [
      'a property contacts do not have',
      withOperation('no_such_property', { operationType: 'ALL_PROPERTY', operator: 'IS_KNOWN' }),
      `${filterPath}.property`,
      /no contact property named "no_such_property"/,
    ],
    [
      'a filter without an operation',
      inAnd({ filterType: 'PROPERTY', property: 'nickname' }),
      `${filterPath}.operation`,
      /operation is required/,
    ],
    [
      'an unknown operationType',
      withOperation('nickname', { operationType: 'TEXT', operator: 'IS_EQUAL_TO', value: 'x' }),
      `${filterPath}.operation.operationType`,
      /not an operationType/,
    ],
    [
      'an operationType this service does not evaluate',
      withOperation('last_seen', { operationType: 'CALENDAR_DATE', operator: 'IN_THIS_TIME_UNIT', timeUnit: 'DAY' }),
      `${filterPath}.operation.operationType`,
      /does not evaluate operationType CALENDAR_DATE/,
    ],
    [
      'an operationType the property type does not take',
      withOperation('nickname', { operationType: 'NUMBER', operator: 'IS_EQUAL_TO', value: 1 }),
      `${filterPath}.operation.operationType`,
      /nickname is of type string/,
    ],
    [
      'an operator the operationType does not take',
      withOperation('nickname', { operationType: 'STRING', operator: 'IS_GREATER_THAN', value: 'x' }),
      `${filterPath}.operation.operator`,
      /not an operator of operationType STRING/,
    ],
    [
      'a missing operator',
      withOperation('nickname', { operationType: 'STRING', value: 'x' }),
      `${filterPath}.operation.operator`,
      /operator is required/,
    ],
    [
      'a history operator',
      withOperation('nickname', { operationType: 'STRING', operator: 'HAS_EVER_BEEN_EQUAL_TO', value: 'x' }),
      `${filterPath}.operation.operator`,
      /does not evaluate property history/,
    ],
    [
      'an enumeration history operator',
      withOperation('tier', { operationType: 'ENUMERATION', operator: 'HAS_NEVER_BEEN_ANY_OF', values: ['gold'] }),
      `${filterPath}.operation.operator`,
      /does not evaluate property history/,
    ],
    [
      'a STRING without a value',
      withOperation('nickname', { operationType: 'STRING', operator: 'IS_EQUAL_TO' }),
      `${filterPath}.operation.value`,
      /value is required/,
    ],
    [
      'a STRING value that is a number',
      withOperation('nickname', { operationType: 'STRING', operator: 'IS_EQUAL_TO', value: 5 }),
      `${filterPath}.operation.value`,
      /a string/,
    ],
    [
      'a NUMBER value that is no number',
      withOperation('score', { operationType: 'NUMBER', operator: 'IS_EQUAL_TO', value: '0x10' }),
      `${filterPath}.operation.value`,
      /a number/,
    ],
    [
      'a BOOL value that is no boolean',
      withOperation('is_vip', { operationType: 'BOOL', operator: 'IS_EQUAL_TO', value: 'yes' }),
      `${filterPath}.operation.value`,
      /true or false/,
    ],
    [
      'ENUMERATION without values',
      withOperation('tier', { operationType: 'ENUMERATION', operator: 'IS_ANY_OF', values: [] }),
      `${filterPath}.operation.values`,
      /at least one string/,
    ],
    [
      'MULTISTRING values that are not strings',
      withOperation('nickname', { operationType: 'MULTISTRING', operator: 'IS_EQUAL_TO', values: ['a', 2] }),
      `${filterPath}.operation.values[1]`,
      /must be strings/,
    ],
    [
      'a DATETIME timestamp with a fraction',
      withOperation('last_seen', { operationType: 'DATETIME', operator: 'IS_AFTER', timestamp: 1.5 }),
      `${filterPath}.operation.timestamp`,
      /whole epoch milliseconds/,
    ],
    [
      'a RANGED_DATE without an upperBound',
      withOperation('last_seen', { operationType: 'RANGED_DATE', operator: 'IS_BETWEEN', lowerBound: 0 }),
      `${filterPath}.operation.upperBound`,
      /upperBound is required/,
    ],
    [
      'a negative numberOfDays',
      withOperation('last_seen', {
        operationType: 'ROLLING_DATE_RANGE',
        operator: 'IS_LESS_THAN_X_DAYS_AGO',
        numberOfDays: -1,
      }),
      `${filterPath}.operation.numberOfDays`,
      /integer from 0/,
    ],
    [
      'an includeObjectsWithNoValueSet that is no boolean',
      withOperation('nickname', {
        operationType: 'ALL_PROPERTY',
        operator: 'IS_KNOWN',
        includeObjectsWithNoValueSet: 'yes',
      }),
      `${filterPath}.operation.includeObjectsWithNoValueSet`,
      /must be a boolean/,
    ],
    [
      'a PROPERTY_REFERENCED time point',
      withOperation('last_seen', {
        operationType: 'TIME_POINT',
        operator: 'IS_AFTER',
        timePoint: { timeType: 'PROPERTY_REFERENCED', property: 'createdate', referenceType: 'VALUE', zoneId: 'UTC' },
      }),
      `${filterPath}.operation.timePoint.timeType`,
      /does not evaluate PROPERTY_REFERENCED/,
    ],
    [
      'a WEEK index reference',
      withOperation('last_seen', {
        operationType: 'TIME_POINT',
        operator: 'IS_AFTER',
        timePoint: {
          timeType: 'INDEXED',
          indexReference: { referenceType: 'WEEK', dayOfWeek: 'MONDAY' },
          zoneId: 'UTC',
        },
      }),
      `${filterPath}.operation.timePoint.indexReference.referenceType`,
      /does not evaluate indexReference "WEEK"/,
    ],
    [
      'an unknown time zone',
      withOperation('last_seen', {
        operationType: 'TIME_POINT',
        operator: 'IS_AFTER',
        timePoint: { timeType: 'DATE', year: 2024, month: 1, day: 1, zoneId: 'Mars/Olympus' },
      }),
      `${filterPath}.operation.timePoint.zoneId`,
      /not a time zone/,
    ],
    [
      'a day the month does not have',
      withOperation('last_seen', {
        operationType: 'TIME_RANGED',
        operator: 'IS_BETWEEN',
        lowerBoundTimePoint: { timeType: 'DATE', year: 2023, month: 2, day: 29, zoneId: 'UTC' },
        upperBoundTimePoint: { timeType: 'DATE', year: 2024, month: 1, day: 1, zoneId: 'UTC' },
      }),
      `${filterPath}.operation.lowerBoundTimePoint.day`,
      /has no day 29/,
    ],
    [
      'an endpointBehavior that is neither',
      withOperation('last_seen', {
        operationType: 'TIME_POINT',
        operator: 'IS_AFTER',
        endpointBehavior: 'OPEN',
        timePoint: { timeType: 'DATE', year: 2024, month: 1, day: 1, zoneId: 'UTC' },
      }),
      `${filterPath}.operation.endpointBehavior`,
      /INCLUSIVE or EXCLUSIVE/,
    ],
    [
      `more than ${listFilterLimits.filters} filters`,
      rootOf(...Array.from({ length: 3 }, () => andBranch(Array.from({ length: 100 }, () => stringFilter)))),
      'filterBranches[2].filters[50]',
      /at most 250 filters/,
    ],
    [
      `more than ${listFilterLimits.textSearches} values looked for inside values`,
      rootOf(
        andBranch([
          propertyFilter('nickname', { operationType: 'STRING', operator: 'CONTAINS', value: 'a' }),
          propertyFilter('nickname', {
            operationType: 'MULTISTRING',
            operator: 'DOES_NOT_CONTAIN_EXACTLY',
            values: Array.from({ length: listFilterLimits.textSearches }, (_, index) => `w${index}`),
          }),
        ]),
      ),
      'filterBranches[0].filters[1].operation.values',
      /at most 50 values inside values/,
    ],
    [
      `a filterBranch over ${listFilterLimits.bodyChars} characters`,
      withOperation('nickname', {
        operationType: 'STRING',
        operator: 'IS_EQUAL_TO',
        value: 'x'.repeat(listFilterLimits.bodyChars),
      }),
      'filterBranch',
      /over 50000 characters/,
    ],
  ];

  it.each(cases)('answers 400 for %s, naming it', (_name, input, path, message) => {
    let thrown: unknown;
    try {
      compileListFilters(input, lookup, contacts);
    } catch (error) {
      thrown = error;
    }

    expect(thrown).toBeInstanceOf(ValidationError);
    expect((thrown as ValidationError).status).toBe(400);
    expect((thrown as ValidationError).context).toEqual({ filterBranch: [path] });
    expect((thrown as ValidationError).message).toMatch(message);
  });

  it(`accepts branches ${listFilterLimits.depth} deep`, () => {
    expect(compileListFilters(nested(listFilterLimits.depth), lookup, contacts).properties).toEqual(['nickname']);
  });

  it('throws nothing but a ValidationError, whatever JSON it is given', () => {
    const operationKeys = [
      'operationType',
      'operator',
      'value',
      'values',
      'timestamp',
      'lowerBound',
      'upperBound',
      'numberOfDays',
      'timePoint',
      'lowerBoundTimePoint',
      'upperBoundTimePoint',
      'endpointBehavior',
      'includeObjectsWithNoValueSet',
    ];
    const operationTypes = [...Object.keys(listFilterOperators), 'CALENDAR_DATE', '__proto__'];
    const operators = [...new Set(Object.values(listFilterOperators).flat()), 'HAS_EVER_BEEN_EQUAL_TO', 'constructor'];
    const timePoint = fc.record(
      {
        timeType: fc.constantFrom('DATE', 'INDEXED', 'PROPERTY_REFERENCED', 7),
        year: fc.jsonValue(),
        month: fc.integer({ min: -1, max: 13 }),
        day: fc.integer({ min: 0, max: 32 }),
        zoneId: fc.constantFrom('UTC', 'Asia/Tokyo', 'x', 3),
        indexReference: fc.oneof(
          fc.jsonValue(),
          fc.record({ referenceType: fc.constantFrom('NOW', 'TODAY', 'WEEK'), hour: fc.jsonValue() }),
        ),
        offset: fc.oneof(
          fc.jsonValue(),
          fc.dictionary(fc.constantFrom('days', 'months', 'years', 'hours'), fc.oneof(fc.integer(), fc.jsonValue())),
        ),
      },
      { requiredKeys: [] },
    );
    const operationValue = fc.oneof(
      fc.jsonValue(),
      fc.constantFrom(...operationTypes),
      fc.constantFrom(...operators),
      fc.array(fc.string(), { maxLength: 3 }),
      timePoint,
      fc.integer(),
      fc.double(),
    );
    const operation = fc.oneof(
      fc.jsonValue(),
      fc.dictionary(fc.constantFrom(...operationKeys), operationValue, { maxKeys: 8 }),
      fc.record(
        {
          operationType: fc.constantFrom(...operationTypes),
          operator: fc.constantFrom(...operators),
          value: operationValue,
          values: operationValue,
          timePoint,
          lowerBoundTimePoint: timePoint,
          upperBoundTimePoint: timePoint,
          timestamp: operationValue,
          lowerBound: operationValue,
          upperBound: operationValue,
          numberOfDays: operationValue,
        },
        { requiredKeys: ['operationType', 'operator'] },
      ),
    );
    const filter = fc.oneof(
      fc.jsonValue(),
      fc.record(
        {
          filterType: fc.constantFrom('PROPERTY', 'PAGE_VIEW', 1),
          property: fc.constantFrom(...customs.keys(), 'email', 'nope', 5),
          operation,
        },
        { requiredKeys: ['filterType'] },
      ),
    );
    const branch = fc.letrec<{ branch: unknown }>((tie) => ({
      branch: fc.oneof(
        { depthSize: 'small' },
        fc.jsonValue(),
        fc.record(
          {
            filterBranchType: fc.constantFrom('OR', 'AND', 'NOT_ALL', 'NOT_ANY', 'ASSOCIATION', 'x'),
            filters: fc.oneof(fc.array(filter, { maxLength: 3 }), fc.jsonValue()),
            filterBranches: fc.array(tie('branch'), { maxLength: 2 }),
          },
          { requiredKeys: ['filterBranchType'] },
        ),
      ),
    })).branch;
    const input = fc.oneof(
      branch,
      fc
        .tuple(fc.array(filter, { maxLength: 3 }), fc.array(branch, { maxLength: 2 }))
        .map(([filters, branches]) => rootOf(andBranch(filters, branches))),
    );

    fc.assert(
      fc.property(input, (body) => {
        try {
          const { tree } = compileListFilters(body, lookup, contacts);
          listFilterMatcher(tree, nowMs)(formsOf({ nickname: 'Ada', score: '3', last_seen: '2024-06-01T00:00:00Z' }));
          searchGroupsAt(tree, nowMs);
        } catch (error) {
          expect(error).toBeInstanceOf(ValidationError);
        }
      }),
      { numRuns: 1000, seed: 7 },
    );
  });

  it('names the context by the field it is given', () => {
    expect(() => compileListFilters(rootOf(), lookup, contacts, 'body.filterBranch')).toThrow(
      expect.objectContaining({ context: { 'body.filterBranch': ['filterBranches'] } }),
    );
  });

  it('answers 400, not a stack overflow, for a body nested 100,000 deep', () => {
    let branch: unknown = { filterBranchType: 'NOT_ALL', filters: [] };
    for (let level = 0; level < 100_000; level += 1) branch = { filterBranchType: 'NOT_ALL', filterBranches: [branch] };

    expect(() => compileListFilters(rootOf(andBranch([], [branch])), lookup, contacts)).toThrow(ValidationError);
  });

  it('answers 400 at the depth limit for a deep body under the size limit', () => {
    let branch: unknown = { filterBranchType: 'NOT_ALL' };
    for (let level = 0; level < 900; level += 1) branch = { filterBranchType: 'NOT_ALL', filterBranches: [branch] };

    expect(() => compileListFilters(rootOf(andBranch([], [branch])), lookup, contacts)).toThrow(/nest at most 6 deep/);
  });
});

describe('listFilterMatcher against the search', () => {
  const pools = {
    nickname: ['', 'Ada', 'ada lovelace', 'ADA', 'Bob', 'bobby'],
    score: ['', '-1', '0', '1', '2.5', '10'],
    is_vip: ['', 'true', 'false'],
    tier: ['', 'gold', 'silver', 'bronze'],
    last_seen: [
      '',
      '2024-06-01T00:00:00.000Z',
      '2024-06-10T12:00:00.000Z',
      '2024-06-14T00:00:00.000Z',
      '2024-06-15T00:00:00.000Z',
      '2024-06-20T00:00:00.000Z',
    ],
    renewal_date: ['', '2024-06-01', '2024-06-14', '2024-06-15', '2024-07-01'],
  };
  const instants = pools.last_seen.filter((value) => value !== '').map((value) => Date.parse(value));
  const record = fc.record(
    Object.fromEntries(Object.entries(pools).map(([name, values]) => [name, fc.constantFrom(...values)])) as Record<
      keyof typeof pools,
      fc.Arbitrary<string>
    >,
  );
  const flag = fc.boolean();
  const nonEmpty = (values: string[]) => values.filter((value) => value !== '');
  const operation = (operationType: string, operators: string[], operands: fc.Arbitrary<Record<string, unknown>>) =>
    fc.tuple(fc.constantFrom(...operators), operands, flag).map(([operator, rest, isIncluded]) => ({
      operationType,
      operator,
      ...rest,
      includeObjectsWithNoValueSet: isIncluded,
    }));
  const number = fc.constantFrom(-1, 0, 1, 2.5, 10);
  const instant = fc.constantFrom(...instants);
  const leaf: fc.Arbitrary<unknown> = fc
    .oneof(
      fc.tuple(
        fc.constant('nickname'),
        operation(
          'STRING',
          ['IS_EQUAL_TO', 'IS_NOT_EQUAL_TO'],
          fc.record({ value: fc.constantFrom(...nonEmpty(pools.nickname)) }),
        ),
      ),
      fc.tuple(
        fc.constant('nickname'),
        operation(
          'MULTISTRING',
          ['IS_EQUAL_TO', 'IS_NOT_EQUAL_TO', 'CONTAINS_EXACTLY', 'DOES_NOT_CONTAIN_EXACTLY'],
          fc.record({ values: fc.subarray(['ada', 'Bob', 'lovelace'], { minLength: 1 }) }),
        ),
      ),
      fc.tuple(
        fc.constant('score'),
        operation(
          'NUMBER',
          [
            'IS_EQUAL_TO',
            'IS_NOT_EQUAL_TO',
            'IS_GREATER_THAN',
            'IS_GREATER_THAN_OR_EQUAL_TO',
            'IS_LESS_THAN',
            'IS_LESS_THAN_OR_EQUAL_TO',
          ],
          fc.record({ value: number }),
        ),
      ),
      fc.tuple(
        fc.constant('score'),
        operation(
          'NUMBER_RANGED',
          ['IS_BETWEEN', 'IS_NOT_BETWEEN'],
          fc.record({ lowerBound: number, upperBound: number }),
        ),
      ),
      fc.tuple(
        fc.constant('is_vip'),
        operation('BOOL', ['IS_EQUAL_TO', 'IS_NOT_EQUAL_TO'], fc.record({ value: fc.boolean() })),
      ),
      fc.tuple(
        fc.constant('tier'),
        operation(
          'ENUMERATION',
          ['IS_ANY_OF', 'IS_NONE_OF'],
          fc.record({ values: fc.subarray(['gold', 'silver', 'bronze'], { minLength: 1 }) }),
        ),
      ),
      fc.tuple(
        fc.constant('tier'),
        operation(
          'ENUMERATION',
          ['IS_EXACTLY', 'IS_NOT_EXACTLY', 'CONTAINS_ALL', 'DOES_NOT_CONTAIN_ALL'],
          fc.record({ values: fc.constantFrom(['gold'], ['bronze']) }),
        ),
      ),
      fc.tuple(
        fc.constantFrom(...Object.keys(pools)),
        operation('ALL_PROPERTY', ['IS_KNOWN', 'IS_UNKNOWN'], fc.constant({})),
      ),
      fc.tuple(
        fc.constantFrom('last_seen', 'renewal_date'),
        operation('DATETIME', ['IS_BEFORE', 'IS_AFTER'], fc.record({ timestamp: instant })),
      ),
      fc.tuple(
        fc.constantFrom('last_seen', 'renewal_date'),
        operation(
          'RANGED_DATE',
          ['IS_BETWEEN', 'IS_NOT_BETWEEN'],
          fc.record({ lowerBound: instant, upperBound: instant }),
        ),
      ),
      fc.tuple(
        fc.constantFrom('last_seen', 'renewal_date'),
        operation(
          'ROLLING_DATE_RANGE',
          [
            'IS_LESS_THAN_X_DAYS_AGO',
            'IS_MORE_THAN_X_DAYS_AGO',
            'IS_LESS_THAN_X_DAYS_FROM_NOW',
            'IS_MORE_THAN_X_DAYS_FROM_NOW',
          ],
          fc.record({ numberOfDays: fc.constantFrom(0, 1, 5, 14) }),
        ),
      ),
    )
    .map((entry) => {
      const [property, leafOperation] = entry as [string, Record<string, unknown>];
      return propertyFilter(property, leafOperation);
    });
  const notBranch = (filters: fc.Arbitrary<unknown[]>, branches: fc.Arbitrary<unknown[]>) =>
    fc
      .tuple(fc.constantFrom('NOT_ALL', 'NOT_ANY'), filters, branches)
      .map(([filterBranchType, branchFilters, filterBranches]) => ({
        filterBranchType,
        filters: branchFilters,
        filterBranches,
      }));
  const innerNot = notBranch(fc.array(leaf, { maxLength: 1 }), fc.constant([]));
  const tree = fc.array(
    fc
      .tuple(
        fc.array(leaf, { maxLength: 3 }),
        fc.array(notBranch(fc.array(leaf, { maxLength: 2 }), fc.array(innerNot, { maxLength: 1 })), { maxLength: 1 }),
      )
      .map(([filters, branches]) => andBranch(filters, branches)),
    { minLength: 1, maxLength: 2 },
  );

  it('agrees with compileSearchMatch over searchGroupsOf (searchGroupsAt for relative dates), record for record', () => {
    fc.assert(
      fc.property(tree, fc.array(record, { minLength: 1, maxLength: 8 }), (ands, values) => {
        const compiled = compileListFilters(rootOf(...ands), lookup, contacts);
        const groups = compiled.isTimeRelative ? searchGroupsAt(compiled.tree, nowMs) : searchGroupsOf(compiled.tree);
        fc.pre(groups !== undefined);
        if (compiled.isTimeRelative) expect(searchGroupsOf(compiled.tree)).toBeUndefined();
        const search = compileSearchMatch({
          groups: compileFilterGroups(groups ?? [], lookup, contacts),
          queryTerms: [],
          searched: contacts,
        });
        const matches = listFilterMatcher(compiled.tree, nowMs);
        for (const properties of values) {
          const forms = formsOf(Object.fromEntries(Object.entries(properties).filter(([, value]) => value !== '')));
          expect(matches(forms)).toBe(search.matches(forms));
        }
      }),
      { numRuns: 400, seed: 20_240_615 },
    );
  });

  it('gives no groups for a tree with an operator the search lacks', () => {
    const { tree: compiledTree } = compileListFilters(
      oneFilter('nickname', { operationType: 'STRING', operator: 'STARTS_WITH', value: 'a' }),
      lookup,
      contacts,
    );

    expect(searchGroupsOf(compiledTree)).toBeUndefined();
  });

  it('gives a group no record matches for a tree no record matches', () => {
    const { tree: compiledTree } = compileListFilters(
      rootOf(
        andBranch([], [{ filterBranchType: 'NOT_ALL', filters: [], filterBranches: [] }]),
        andBranch([], [{ filterBranchType: 'NOT_ALL', filters: [] }]),
      ),
      lookup,
      contacts,
    );
    const groups = searchGroupsOf(compiledTree) ?? [];
    const search = compileSearchMatch({
      groups: compileFilterGroups(groups, lookup, contacts),
      queryTerms: [],
      searched: contacts,
    });

    expect([search.matches(formsOf({})), listFilterMatcher(compiledTree)(formsOf({}))]).toEqual([false, false]);
  });
});

describe('IN_LIST filters', () => {
  const inList = (listId: string, operator = 'IN_LIST') => ({ filterType: 'IN_LIST', listId, operator });
  const nickname = propertyFilter('nickname', { operationType: 'STRING', operator: 'IS_EQUAL_TO', value: 'Ada' });

  it('match on the memberships the matcher is given, inside NOT_ALL and NOT_ANY branches too', () => {
    const compiled = compileListFilters(
      rootOf(
        andBranch([nickname, inList('7')]),
        andBranch([inList('8', 'NOT_IN_LIST')], [{ filterBranchType: 'NOT_ANY', filters: [inList('9')] }]),
      ),
      lookup,
      contacts,
    );
    expect(compiled.listsNamed).toEqual([
      { listId: '7', path: 'filterBranches[0].filters[1].listId' },
      { listId: '8', path: 'filterBranches[1].filters[0].listId' },
      { listId: '9', path: 'filterBranches[1].filterBranches[0].filters[0].listId' },
    ]);
    const echoed = compiled.branch.filterBranches as { filters: unknown[] }[];
    expect(echoed[0]?.filters[1]).toEqual({ filterType: 'IN_LIST', listId: '7', operator: 'IN_LIST' });
    const matches = listFilterMatcher(compiled.tree);
    const ada = formsOf({ nickname: 'Ada' });
    const bob = formsOf({ nickname: 'Bob' });
    const of =
      (...ids: string[]) =>
      (listId: string) =>
        ids.includes(listId);
    expect(matches(ada, of('7'))).toBe(true);
    expect(matches(bob, of('7', '8'))).toBe(false);
    expect(matches(ada, of('8'))).toBe(false);
    // Not in 8 and not in 9: the second AND branch.
    expect(matches(bob, of())).toBe(true);
    expect(matches(bob, of('9'))).toBe(false);
    expect(matches(bob, of('8'))).toBe(false);
    // A membership has no search filter: the tree is not a search.
    expect(searchGroupsOf(compiled.tree)).toBeUndefined();
  });
});

describe('ASSOCIATION filters', () => {
  const associationFilter = (operator: string, refine: Record<string, unknown>) => ({
    filterType: 'ASSOCIATION',
    listId: '7',
    operator,
    associationTypeId: 279,
    associationCategory: 'HUBSPOT_DEFINED',
    coalescingRefineBy: { type: 'NUM_OCCURRENCES', ...refine },
  });

  it('compile to a count of associated members, matched within minOccurrences and maxOccurrences', () => {
    const between = compileListFilters(
      rootOf(andBranch([associationFilter('IN_LIST', { minOccurrences: 1, maxOccurrences: 2 })])),
      lookup,
      contacts,
    );
    const outside = compileListFilters(
      rootOf(andBranch([associationFilter('NOT_IN_LIST', { minOccurrences: 1, maxOccurrences: 2 })])),
      lookup,
      contacts,
    );
    expect(between.associationsNamed).toEqual([
      expect.objectContaining({ associationCategory: 'HUBSPOT_DEFINED', path: 'filterBranches[0].filters[0]' }),
    ]);
    expect(between.listsNamed).toEqual([]);
    expect(searchGroupsOf(between.tree)).toBeUndefined();
    const record = formsOf({});
    const counts = [0, 1, 2, 3];
    expect(counts.map((count) => listFilterMatcher(between.tree)(record, undefined, () => count))).toEqual([
      false,
      true,
      true,
      false,
    ]);
    expect(counts.map((count) => listFilterMatcher(outside.tree)(record, undefined, () => count))).toEqual([
      true,
      false,
      false,
      true,
    ]);
  });

  it('count at least one when minOccurrences is absent, and echo the refinement as applied', () => {
    const compiled = compileListFilters(rootOf(andBranch([associationFilter('IN_LIST', {})])), lookup, contacts);
    expect(compiled.branch).toMatchObject({
      filterBranches: [{ filters: [{ coalescingRefineBy: { type: 'NUM_OCCURRENCES', minOccurrences: 1 } }] }],
    });
    expect(listFilterMatcher(compiled.tree)(formsOf({}), undefined, () => 0)).toBe(false);
    expect(listFilterMatcher(compiled.tree)(formsOf({}), undefined, () => 5)).toBe(true);
  });
});
