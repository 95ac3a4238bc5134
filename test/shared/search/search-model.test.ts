import { companyObjectType } from '../../../shared/objects/object-types';
import fc from 'fast-check';
import { archiveRecord } from '../../../shared/records/archive-record';
import { createRecord } from '../../../shared/records/create-record';
import { updateRecord } from '../../../shared/records/update-record';
import type { CrmRecord } from '../../../shared/db/records';
import { findRecord } from '../../../shared/db/records';
import { findStandardCompanyProperty } from '../../support/company-catalog';
import { searchRecords } from '../../../shared/search/search-records';
import type { FilterInput, SearchInput } from '../../../shared/search/search-request';
import { provision, unique } from '../../support/harness';

/**
 * The search against a plain in-memory filter of the same records, written independently of the
 * service's matcher: same ids, same order, same total, for random filter groups, sorts and pages.
 */
const names = ['Acme', 'acme labs', 'ACME Widgets, Inc.', 'Globex Corp', 'Ünïcode Straße', 'zeta', 'Zeta Systems'];
const cities = ['Boston', 'boston', 'BOSTON', 'Austin', 'Paris', 'São Paulo'];
const employees = ['1', '2', '10', '100', '-5', '2.5', '1000000', '0'];
const industries = ['BANKING', 'INTERNET', 'COMPUTER_SOFTWARE'];
const closeDates = [
  '2023-01-01T00:00:00.000Z',
  '2023-06-15T12:30:00.000Z',
  '2024-02-29T23:59:59.999Z',
  '1999-12-31T00:00:00.000Z',
];
const descriptions = [
  'jane@hubspot.com sells widgets',
  'bob@example.org',
  'Widgets and gadgets',
  'the best-in-class widget',
];

const hub = { hubId: 0, appId: 0, userId: 0 };
let records: CrmRecord[] = [];
const domainsOf = (record: CrmRecord): string | undefined => record.properties.domain;

beforeAll(async () => {
  const installation = await provision();
  Object.assign(hub, { hubId: installation.hubId, appId: installation.appId, userId: installation.userId });
  const random = fc.sample(
    fc.record({
      name: fc.option(fc.constantFrom(...names), { nil: undefined }),
      city: fc.option(fc.constantFrom(...cities), { nil: undefined }),
      numberofemployees: fc.option(fc.constantFrom(...employees), { nil: undefined }),
      industry: fc.option(fc.constantFrom(...industries), { nil: undefined }),
      closedate: fc.option(fc.constantFrom(...closeDates), { nil: undefined }),
      description: fc.option(fc.constantFrom(...descriptions), { nil: undefined }),
      hasDomain: fc.boolean(),
    }),
    { numRuns: 36, seed: 42 },
  );
  const ids: string[] = [];
  for (const [index, entry] of random.entries()) {
    const { hasDomain, ...values } = entry;
    const properties = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Record<
      string,
      string
    >;
    if (hasDomain || !properties.name) properties.domain = `${unique('model')}-${index}.example`;
    ids.push((await createRecord(hub, companyObjectType, { properties })).id);
  }
  // Updates and archives must show in the projection exactly as in the records.
  for (const id of ids.slice(0, 6))
    await updateRecord(hub, companyObjectType, id, { properties: { city: 'Lyon', numberofemployees: '' } });
  for (const id of ids.slice(30, 34)) await archiveRecord(companyObjectType, hub.hubId, id);
  records = (
    await Promise.all(
      ids
        .slice(0, 30)
        .concat(ids.slice(34))
        .map((id) => findRecord(companyObjectType, hub.hubId, id)),
    )
  ).filter((record): record is CrmRecord => record !== undefined);
});

// --- The model: typed values straight from the records ---

function rawValue(record: CrmRecord, name: string): string | undefined {
  if (name === 'hs_object_id') return record.id;
  if (name === 'createdate') return record.createdAt;
  if (name === 'hs_lastmodifieddate') return record.updatedAt;
  return record.properties[name];
}

type Typed = { kind: 'number'; value: number } | { kind: 'text'; value: string };

function typed(name: string, raw: string): Typed | undefined {
  const type = findStandardCompanyProperty(name)?.type;
  if (type === 'number') return { kind: 'number', value: Number(raw) };
  if (type === 'datetime' || type === 'date')
    return { kind: 'number', value: /^-?\d+$/.test(raw) ? Number(raw) : Date.parse(raw) };
  if (type === 'enumeration' || type === 'bool') return { kind: 'text', value: raw };
  return { kind: 'text', value: raw.toLowerCase() };
}

function compare(a: Typed, b: Typed): number {
  if (a.kind === 'number' && b.kind === 'number') return a.value - b.value;
  return a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
}

function modelTokenMatch(text: string, pattern: string): boolean {
  const tokens = new Set([text, ...text.split(/\s+/).filter(Boolean), ...(text.match(/[\p{L}\p{N}]+/gu) ?? [])]);
  const regex = new RegExp(
    `^${pattern
      .split('*')
      .map((piece) => piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
    's',
  );
  return [...tokens].some((token) => regex.test(token));
}

function modelFilter(record: CrmRecord, filter: FilterInput): boolean {
  const raw = rawValue(record, filter.propertyName);
  const value = raw === undefined ? undefined : typed(filter.propertyName, raw);
  const wanted = filter.value === undefined ? undefined : typed(filter.propertyName, String(filter.value));
  const isCaseSensitive = findStandardCompanyProperty(filter.propertyName)?.type === 'enumeration';
  switch (filter.operator) {
    case 'EQ':
      return value !== undefined && wanted !== undefined && compare(value, wanted) === 0;
    case 'NEQ':
      return value === undefined || (wanted !== undefined && compare(value, wanted) !== 0);
    case 'LT':
      return value !== undefined && wanted !== undefined && compare(value, wanted) < 0;
    case 'LTE':
      return value !== undefined && wanted !== undefined && compare(value, wanted) <= 0;
    case 'GT':
      return value !== undefined && wanted !== undefined && compare(value, wanted) > 0;
    case 'GTE':
      return value !== undefined && wanted !== undefined && compare(value, wanted) >= 0;
    case 'BETWEEN': {
      const high = typed(filter.propertyName, String(filter.highValue));
      return (
        value !== undefined &&
        wanted !== undefined &&
        high !== undefined &&
        compare(value, wanted) >= 0 &&
        compare(value, high) <= 0
      );
    }
    case 'IN':
      return (
        value !== undefined &&
        (filter.values ?? []).some((entry) => compare(value, typed(filter.propertyName, String(entry)) as Typed) === 0)
      );
    case 'NOT_IN':
      return (
        value === undefined ||
        !(filter.values ?? []).some((entry) => compare(value, typed(filter.propertyName, String(entry)) as Typed) === 0)
      );
    case 'HAS_PROPERTY':
      return raw !== undefined;
    case 'NOT_HAS_PROPERTY':
      return raw === undefined;
    case 'CONTAINS_TOKEN':
      return (
        raw !== undefined &&
        modelTokenMatch(
          isCaseSensitive ? raw : raw.toLowerCase(),
          isCaseSensitive ? String(filter.value) : String(filter.value).toLowerCase(),
        )
      );
    case 'NOT_CONTAINS_TOKEN':
      return (
        raw === undefined ||
        !modelTokenMatch(
          isCaseSensitive ? raw : raw.toLowerCase(),
          isCaseSensitive ? String(filter.value) : String(filter.value).toLowerCase(),
        )
      );
  }
}

function modelSearch(input: SearchInput): { total: number; ids: string[] } {
  const groups = input.filterGroups ?? [];
  const terms = (input.query ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  const matches = records.filter(
    (record) =>
      (groups.length === 0 || groups.some((group) => group.filters.every((filter) => modelFilter(record, filter)))) &&
      terms.every((term) =>
        ['name', 'domain', 'website', 'phone'].some((name) => rawValue(record, name)?.toLowerCase().includes(term)),
      ),
  );
  const sort = input.sorts?.[0];
  const propertyName =
    sort === undefined ? 'createdate' : typeof sort === 'string' ? sort.replace(/^-/, '') : sort.propertyName;
  const sign =
    sort !== undefined && (typeof sort === 'string' ? sort.startsWith('-') : sort.direction === 'DESCENDING') ? -1 : 1;
  matches.sort((a, b) => {
    const left = rawValue(a, propertyName);
    const right = rawValue(b, propertyName);
    const byId = sign * (BigInt(a.id) < BigInt(b.id) ? -1 : 1);
    if (left === undefined && right === undefined) return byId;
    if (left === undefined) return 1;
    if (right === undefined) return -1;
    return sign * compare(typed(propertyName, left) as Typed, typed(propertyName, right) as Typed) || byId;
  });
  const offset = Number(input.after ?? 0);
  return { total: matches.length, ids: matches.slice(offset, offset + (input.limit ?? 10)).map((record) => record.id) };
}

// --- Random searches over the values the records hold (in other cases too) ---

const caseVariant = (value: string) => fc.constantFrom(value, value.toLowerCase(), value.toUpperCase());
const textValue = (pool: readonly string[]) => fc.constantFrom(...pool).chain(caseVariant);
// Also the shapes NOT_CONTAINS_TOKEN pushes down (a whole value, a prefix, an infix, `*`) and ones it cannot (`*lit`, `a*b`).
const tokenPattern = fc.constantFrom(
  'acme',
  'ACME',
  'widgets',
  'wid*',
  '*@hubspot.com',
  'inc',
  '*a*',
  'straße',
  'z*ta',
  'corp',
  'gadget*',
  'acme labs',
  'Zeta Systems',
  'acme*',
  'GLOBEX*',
  '*widget*',
  '*',
  '**',
  '*labs',
  'a*s',
  '*cme*s*',
  'bob@example.org',
  '*the best*',
);

const filterFor: Record<string, fc.Arbitrary<FilterInput>> = {
  name: fc.oneof(
    fc.record({
      propertyName: fc.constant('name'),
      operator: fc.constantFrom('EQ', 'NEQ') as fc.Arbitrary<'EQ'>,
      value: textValue(names),
    }),
    fc.record({
      propertyName: fc.constant('name'),
      operator: fc.constantFrom('CONTAINS_TOKEN', 'NOT_CONTAINS_TOKEN') as fc.Arbitrary<'CONTAINS_TOKEN'>,
      value: tokenPattern,
    }),
    fc.record({
      propertyName: fc.constant('name'),
      operator: fc.constantFrom('LT', 'GTE') as fc.Arbitrary<'LT'>,
      value: textValue(names),
    }),
  ),
  city: fc.oneof(
    fc.record({
      propertyName: fc.constant('city'),
      operator: fc.constantFrom('EQ', 'NEQ') as fc.Arbitrary<'EQ'>,
      value: textValue([...cities, 'Lyon']),
    }),
    fc.record({
      propertyName: fc.constant('city'),
      operator: fc.constantFrom('IN', 'NOT_IN') as fc.Arbitrary<'IN'>,
      values: fc.array(textValue([...cities, 'Lyon']), { minLength: 1, maxLength: 3 }),
    }),
    fc.record({
      propertyName: fc.constant('city'),
      operator: fc.constantFrom('HAS_PROPERTY', 'NOT_HAS_PROPERTY') as fc.Arbitrary<'HAS_PROPERTY'>,
    }),
  ),
  numberofemployees: fc.oneof(
    fc.record({
      propertyName: fc.constant('numberofemployees'),
      operator: fc.constantFrom('EQ', 'NEQ', 'LT', 'LTE', 'GT', 'GTE') as fc.Arbitrary<'EQ'>,
      value: fc.constantFrom(...employees, '2.50', '1e2', '5'),
    }),
    fc.record({
      propertyName: fc.constant('numberofemployees'),
      operator: fc.constant('BETWEEN') as fc.Arbitrary<'BETWEEN'>,
      value: fc.constantFrom(...employees),
      highValue: fc.constantFrom(...employees),
    }),
    fc.record({
      propertyName: fc.constant('numberofemployees'),
      operator: fc.constantFrom('IN', 'NOT_IN') as fc.Arbitrary<'IN'>,
      values: fc.array(fc.constantFrom(...employees, '10.0'), { minLength: 1, maxLength: 3 }),
    }),
    fc.record({
      propertyName: fc.constant('numberofemployees'),
      operator: fc.constantFrom('HAS_PROPERTY', 'NOT_HAS_PROPERTY') as fc.Arbitrary<'HAS_PROPERTY'>,
    }),
  ),
  industry: fc.record({
    propertyName: fc.constant('industry'),
    operator: fc.constantFrom('EQ', 'NEQ', 'CONTAINS_TOKEN') as fc.Arbitrary<'EQ'>,
    value: fc.constantFrom(...industries, 'banking', 'COMPUTER*'),
  }),
  closedate: fc.record({
    propertyName: fc.constant('closedate'),
    operator: fc.constantFrom('EQ', 'LT', 'GTE', 'BETWEEN') as fc.Arbitrary<'EQ'>,
    value: fc.constantFrom(...closeDates, String(Date.parse(closeDates[1] ?? '')), '2023-06-15'),
    highValue: fc.constantFrom(...closeDates, '2030-01-01'),
  }),
  description: fc.record({
    propertyName: fc.constant('description'),
    operator: fc.constantFrom('CONTAINS_TOKEN', 'NOT_CONTAINS_TOKEN') as fc.Arbitrary<'CONTAINS_TOKEN'>,
    value: tokenPattern,
  }),
  domain: fc.record({
    propertyName: fc.constant('domain'),
    operator: fc.constantFrom('EQ', 'HAS_PROPERTY', 'NOT_HAS_PROPERTY') as fc.Arbitrary<'EQ'>,
    value: fc
      .integer({ min: 0, max: 40 })
      .map((index) => (records[index] ? (domainsOf(records[index])?.toUpperCase() ?? 'none.example') : 'none.example')),
  }),
  hs_object_id: fc.record({
    propertyName: fc.constant('hs_object_id'),
    operator: fc.constantFrom('EQ', 'IN', 'GT') as fc.Arbitrary<'EQ'>,
    value: fc.integer({ min: 0, max: 40 }).map((index) => records[index]?.id ?? '1000000000000000'),
    values: fc.array(
      fc.integer({ min: 0, max: 40 }).map((index) => records[index]?.id ?? '1000000000000000'),
      { minLength: 1, maxLength: 3 },
    ),
  }),
};

const searchInput: fc.Arbitrary<SearchInput> = fc.record(
  {
    filterGroups: fc.array(
      fc.record({ filters: fc.array(fc.oneof(...Object.values(filterFor)), { minLength: 1, maxLength: 3 }) }),
      { maxLength: 3 },
    ),
    sorts: fc.option(
      fc.oneof(
        fc
          .constantFrom(
            'name',
            '-name',
            'numberofemployees',
            '-numberofemployees',
            'closedate',
            '-createdate',
            'city',
            'industry',
            '-hs_object_id',
          )
          .map((sort) => [sort]),
        fc
          .record({
            propertyName: fc.constantFrom('name', 'numberofemployees', 'city', 'closedate'),
            direction: fc.constantFrom('ASCENDING', 'DESCENDING') as fc.Arbitrary<'ASCENDING'>,
          })
          .map((sort) => [sort]),
      ),
      { nil: undefined },
    ),
    query: fc.option(fc.constantFrom('acme', 'ACME wid', 'corp', 'model', 'zeta sys', 'straße'), { nil: undefined }),
    limit: fc.integer({ min: 1, max: 12 }),
    after: fc.option(fc.integer({ min: 0, max: 30 }), { nil: undefined }),
  },
  { requiredKeys: ['limit'] },
);

describe('company search against an in-memory model of the same records', () => {
  it('answers the same ids, order and total for random filter groups, sorts and pages', async () => {
    expect(records.length).toBe(32);
    await fc.assert(
      fc.asyncProperty(searchInput, async (input) => {
        const answer = await searchRecords(companyObjectType, hub.hubId, input);
        const expected = modelSearch(input);
        expect({ total: answer.total, ids: answer.results.map((result) => result.id) }).toEqual(expected);
        expect(answer.paging?.next.after).toBe(
          expected.total > Number(input.after ?? 0) + (input.limit ?? 10)
            ? String(Number(input.after ?? 0) + (input.limit ?? 10))
            : undefined,
        );
      }),
      { numRuns: 150, seed: 7 },
    );
  });

  it('walks every match exactly once by following paging.next.after', async () => {
    const input: SearchInput = {
      filterGroups: [{ filters: [{ propertyName: 'numberofemployees', operator: 'HAS_PROPERTY' }] }],
      sorts: ['numberofemployees'],
      limit: 4,
    };
    const seen: string[] = [];
    let after: string | undefined;
    for (let pageCount = 0; pageCount < 20; pageCount += 1) {
      const answer = await searchRecords(companyObjectType, hub.hubId, { ...input, after });
      seen.push(...answer.results.map((result) => result.id));
      after = answer.paging?.next.after;
      if (!after) break;
    }
    expect(seen).toEqual(modelSearch({ ...input, limit: 100 }).ids);
  });
});
