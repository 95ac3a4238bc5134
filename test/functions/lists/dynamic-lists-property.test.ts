import fc from 'fast-check';
import { compileListFilters } from '../../../shared/lists/list-filters';
import { searchGroupsOf } from '../../../shared/lists/list-filters';
import { requireObjectType } from '../../../shared/objects/object-types';
import type { PropertyRules } from '../../../shared/properties/property-definition';
import { standardRulesOf } from '../../../shared/properties/standard-catalogs';
import type { PropertyLookup } from '../../../shared/properties/validate-property-values';
import { searchLimits } from '../../../shared/search/search-request';
import { crmClient, type CrmClient } from '../../support/crm-client';
import { install, unique, useTestGateway } from '../../support/harness';

/**
 * A DYNAMIC list against the search, over HTTP: each run is a new account with random contacts, a
 * list of random filters evaluated over them, then random writes (creates, updates, batch updates,
 * archives, merges). After the first evaluation and after each write, the list's members are the
 * records a search with the same conditions (the list's filters as search filter groups) returns,
 * member for member, its size is their count, and paging the memberships to the end in pages of a
 * random size returns each member exactly once. Bounded: 10 runs of at most 6 records and 8 writes.
 * The second property adds IN_LIST and NOT_IN_LIST filters of a MANUAL list to the AND branches, and
 * adds and removes of that list to the writes: each branch's records are then its search's records
 * in (not in) the MANUAL list's members.
 */
const gateway = useTestGateway();
const contactsType = requireObjectType('contacts');
const standard = standardRulesOf(contactsType);
const score: PropertyRules = {
  name: 'score',
  type: 'number',
  fieldType: 'number',
  options: [],
  externalOptions: false,
  hasUniqueValue: false,
  modificationMetadata: { archivable: true, readOnlyDefinition: false, readOnlyValue: false },
};
const lookup: PropertyLookup = { find: (name) => (name === 'score' ? score : standard.find(name)) };

const contacts = '/crm/v3/objects/contacts';
const lists = '/crm/v3/lists';

type Values = Record<string, string>;

const firstnames = ['ann', 'Ann', 'bob', 'cy'];
const scores = ['-5', '0', '2.5', '10', '100'];
const stages = ['subscriber', 'lead', 'customer'];

/** A property's new value: one of its pool, or '' (cleared, or left unset on a create). */
const values: fc.Arbitrary<Values> = fc.record(
  {
    firstname: fc.constantFrom('', ...firstnames),
    score: fc.constantFrom('', ...scores),
    lifecyclestage: fc.constantFrom('', ...stages),
  },
  { requiredKeys: [] },
);

const propertyFilter = (property: string, operation: Record<string, unknown>) => ({
  filterType: 'PROPERTY',
  property,
  operation,
});
const noValueSet = fc.boolean();
const leaf = fc.oneof(
  fc
    .tuple(fc.constantFrom('IS_EQUAL_TO', 'IS_NOT_EQUAL_TO'), fc.constantFrom(...firstnames), noValueSet)
    .map(([operator, value, includeObjectsWithNoValueSet]) =>
      propertyFilter('firstname', { operationType: 'STRING', operator, value, includeObjectsWithNoValueSet }),
    ),
  fc
    .tuple(
      fc.constantFrom(
        'IS_EQUAL_TO',
        'IS_NOT_EQUAL_TO',
        'IS_GREATER_THAN',
        'IS_GREATER_THAN_OR_EQUAL_TO',
        'IS_LESS_THAN',
        'IS_LESS_THAN_OR_EQUAL_TO',
      ),
      fc.constantFrom(...scores),
      noValueSet,
    )
    .map(([operator, value, includeObjectsWithNoValueSet]) =>
      propertyFilter('score', {
        operationType: 'NUMBER',
        operator,
        value: Number(value),
        includeObjectsWithNoValueSet,
      }),
    ),
  fc
    .tuple(fc.constantFrom('IS_ANY_OF', 'IS_NONE_OF'), fc.subarray(stages, { minLength: 1, maxLength: 2 }), noValueSet)
    .map(([operator, stageValues, includeObjectsWithNoValueSet]) =>
      propertyFilter('lifecyclestage', {
        operationType: 'ENUMERATION',
        operator,
        values: stageValues,
        includeObjectsWithNoValueSet,
      }),
    ),
  fc
    .tuple(fc.constantFrom('firstname', 'score', 'lifecyclestage'), fc.constantFrom('IS_KNOWN', 'IS_UNKNOWN'))
    .map(([property, operator]) => propertyFilter(property, { operationType: 'ALL_PROPERTY', operator })),
);
const notBranch = fc
  .tuple(fc.constantFrom('NOT_ALL', 'NOT_ANY'), fc.array(leaf, { minLength: 1, maxLength: 2 }))
  .map(([filterBranchType, filters]) => ({ filterBranchType, filters, filterBranches: [] }));
const filterBranch = fc
  .array(
    fc
      .tuple(fc.array(leaf, { maxLength: 3 }), fc.array(notBranch, { maxLength: 1 }))
      .filter(([filters, branches]) => filters.length + branches.length > 0)
      .map(([filters, filterBranches]) => ({ filterBranchType: 'AND', filters, filterBranches })),
    { minLength: 1, maxLength: 3 },
  )
  .map((ands) => ({ filterBranchType: 'OR', filters: [], filterBranches: ands }));

/** What an AND branch adds of the MANUAL list: nothing, or an IN_LIST or NOT_IN_LIST filter of it. */
type InList = 'none' | 'IN_LIST' | 'NOT_IN_LIST';

type Write =
  | { kind: 'manual'; isAdd: boolean; pick: number }
  | { kind: 'create'; values: Values }
  | { kind: 'update'; pick: number; values: Values }
  | { kind: 'batchUpdate'; picks: [number, number]; values: [Values, Values] }
  | { kind: 'archive'; pick: number }
  | { kind: 'merge'; picks: [number, number] };
const pick = fc.nat({ max: 1000 });
const write: fc.Arbitrary<Write> = fc.oneof(
  values.map((created) => ({ kind: 'create' as const, values: created })),
  fc.tuple(pick, values).map(([index, changed]) => ({ kind: 'update' as const, pick: index, values: changed })),
  fc.tuple(pick, pick, values, values).map(([a, b, first, second]) => ({
    kind: 'batchUpdate' as const,
    picks: [a, b] as [number, number],
    values: [first, second] as [Values, Values],
  })),
  pick.map((index) => ({ kind: 'archive' as const, pick: index })),
  fc.tuple(pick, pick).map(([a, b]) => ({ kind: 'merge' as const, picks: [a, b] as [number, number] })),
);
const manualWrite: fc.Arbitrary<Write> = fc.oneof(
  write,
  fc.tuple(fc.boolean(), pick).map(([isAdd, index]) => ({ kind: 'manual' as const, isAdd, pick: index })),
);

/** The filter groups of a search for the list's conditions, in requests within the search's limits. */
function searchRequestsOf(branch: unknown): { filters: unknown[] }[][] | undefined {
  const groups = searchGroupsOf(compileListFilters(branch, lookup, contactsType).tree);
  if (!groups || groups.some((group) => group.filters.length > searchLimits.filtersPerGroup)) return undefined;
  const requests: { filters: unknown[] }[][] = [];
  let current: { filters: unknown[] }[] = [];
  let filterCount = 0;
  for (const group of groups) {
    if (current.length === searchLimits.groups || filterCount + group.filters.length > searchLimits.filters) {
      requests.push(current);
      current = [];
      filterCount = 0;
    }
    current.push(group);
    filterCount += group.filters.length;
  }
  requests.push(current);
  return requests;
}

async function searched(api: CrmClient, requests: { filters: unknown[] }[][]): Promise<string[]> {
  const ids = new Set<string>();
  for (const filterGroups of requests) {
    const answer = await api.post<{ total: number; results: { id: string }[] }>(`${contacts}/search`, {
      filterGroups,
      limit: 200,
    });
    expect(answer.status).toBe(200);
    expect(answer.body.total).toBe(answer.body.results.length);
    for (const result of answer.body.results) ids.add(result.id);
  }
  return [...ids].sort();
}

/** The list's members, paged to the end `limit` at a time: each exactly once. */
async function paged(api: CrmClient, listId: string, limit: number): Promise<string[]> {
  const seen: string[] = [];
  let after: string | undefined;
  for (let page = 0; page < 200; page += 1) {
    const answer = await api.get<{ results: { recordId: string }[]; paging?: { next?: { after: string } } }>(
      `${lists}/${listId}/memberships?limit=${limit}${after ? `&after=${after}` : ''}`,
    );
    expect(answer.status).toBe(200);
    expect(answer.body.results.length).toBeLessThanOrEqual(limit);
    seen.push(...answer.body.results.map((member) => member.recordId));
    after = answer.body.paging?.next?.after;
    if (!after) break;
  }
  expect(new Set(seen).size).toBe(seen.length);
  return seen.sort();
}

const present = (changed: Values): Values => Object.fromEntries(Object.entries(changed).filter(([, v]) => v !== ''));

interface Run {
  branch: { filterBranchType: string; filters: unknown[]; filterBranches: { filters: unknown[] }[] };
  initial: Values[];
  writes: Write[];
  pageSize: number;
  /** Per AND branch (by index, cycled): the MANUAL list's filter it adds. */
  inList: InList[];
  /** The initial records (by index, cycled) in the MANUAL list before the list is made. */
  manualPicks: number[];
}

async function run({ branch, initial, writes, pageSize, inList, manualPicks }: Run): Promise<void> {
  const ands = branch.filterBranches.map((and, index) => ({
    and,
    inList: inList.length === 0 ? ('none' as const) : (inList[index % inList.length] as InList),
  }));
  // Each AND branch alone, as a search: the list's records are the union of theirs.
  const requests = ands.map(({ and }) => searchRequestsOf({ ...branch, filterBranches: [and] }));
  fc.pre(requests.every((request) => request !== undefined));
  const isManualNamed = ands.some((entry) => entry.inList !== 'none');
  const installed = await install(gateway, {
    scopes: ['oauth', 'crm.objects.contacts.read', 'crm.objects.contacts.write', 'crm.schemas.contacts.write'].concat([
      'crm.lists.read',
      'crm.lists.write',
    ]),
    limits: { tenSecondlyLimit: 0, searchPerSecondLimit: 0 },
  });
  const api = crmClient(gateway, installed.accessToken);
  const property = await api.post(`/crm/v3/properties/contacts`, {
    name: 'score',
    label: 'Score',
    type: 'number',
    fieldType: 'number',
    groupName: 'contactinformation',
  });
  expect(property.status).toBe(201);
  const live: string[] = [];
  const create = async (created: Values) => {
    const answer = await api.post<{ id: string }>(contacts, {
      properties: { email: `${unique('p').toLowerCase()}@property.example`, ...present(created) },
    });
    expect(answer.status).toBe(201);
    live.push(answer.body.id);
  };
  for (const created of initial) await create(created);
  const manual = new Set<string>();
  let manualId = '';
  const changeManual = async (ids: string[], isAdd: boolean) => {
    const answer = await api.put(`${lists}/${manualId}/memberships/${isAdd ? 'add' : 'remove'}`, ids);
    expect(answer.status).toBe(200);
    for (const id of ids) isAdd ? manual.add(id) : manual.delete(id);
  };
  if (isManualNamed) {
    const made = await api.post<{ list: { listId: string } }>(lists, {
      name: unique('Manual'),
      objectTypeId: '0-1',
      processingType: 'MANUAL',
    });
    expect(made.status).toBe(200);
    manualId = made.body.list.listId;
    const picked = [...new Set(manualPicks.map((n) => live[n % live.length]).filter((id) => id !== undefined))];
    if (picked.length > 0) await changeManual(picked, true);
  }

  const made = await api.post<{ list: { listId: string } }>(lists, {
    name: unique('Property'),
    objectTypeId: '0-1',
    processingType: 'DYNAMIC',
    filterBranch: {
      ...branch,
      filterBranches: ands.map(({ and, inList: operator }) =>
        operator === 'none'
          ? and
          : { ...and, filters: [...and.filters, { filterType: 'IN_LIST', listId: manualId, operator }] },
      ),
    },
  });
  expect(made.status).toBe(200);
  const { listId } = made.body.list;
  for (let poll = 0; poll < 600; poll += 1) {
    const read = await api.get<{ list: { processingStatus: string } }>(`${lists}/${listId}`);
    if (read.body.list.processingStatus === 'COMPLETE') break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  const check = async (step: string) => {
    const union = new Set<string>();
    for (const [index, { inList: operator }] of ands.entries())
      for (const id of await searched(api, requests[index] ?? []))
        if (operator === 'none' || manual.has(id) === (operator === 'IN_LIST')) union.add(id);
    const expected = [...union].sort();
    const read = await api.get<{ list: { size: number; processingStatus: string } }>(`${lists}/${listId}`);
    expect([step, read.body.list.processingStatus, await paged(api, listId, pageSize), read.body.list.size]).toEqual([
      step,
      'COMPLETE',
      expected,
      expected.length,
    ]);
  };
  await check('evaluation');
  for (const [index, change] of writes.entries()) {
    const step = `write ${index} ${change.kind}`;
    const at = (n: number) => live[n % live.length] ?? '';
    if (change.kind === 'create') await create(change.values);
    else if (live.length === 0) continue;
    else if (change.kind === 'manual') {
      if (!isManualNamed) continue;
      await changeManual([at(change.pick)], change.isAdd);
    } else if (change.kind === 'update') {
      const answer = await api.patch(`${contacts}/${at(change.pick)}`, { properties: change.values });
      expect(answer.status).toBe(200);
    } else if (change.kind === 'batchUpdate') {
      const ids = [...new Set([at(change.picks[0]), at(change.picks[1])])];
      const answer = await api.post(`${contacts}/batch/update`, {
        inputs: ids.map((id, n) => ({ id, properties: change.values[n] })),
      });
      expect(answer.status).toBe(200);
    } else if (change.kind === 'archive') {
      const id = at(change.pick);
      expect((await api.delete(`${contacts}/${id}`)).status).toBe(204);
      live.splice(live.indexOf(id), 1);
      // An archived record leaves every list.
      manual.delete(id);
    } else {
      const [primary, other] = [at(change.picks[0]), at(change.picks[1])];
      if (primary === other) continue;
      const merged = await api.post<{ id: string }>(`${contacts}/merge`, {
        primaryObjectId: primary,
        objectIdToMerge: other,
      });
      expect(merged.status).toBe(200);
      live.splice(live.indexOf(primary), 1);
      live.splice(live.indexOf(other), 1);
      live.push(merged.body.id);
      // The merged record takes the primary's MANUAL memberships; the two merged away leave every list.
      if (manual.has(primary)) manual.add(merged.body.id);
      manual.delete(primary);
      manual.delete(other);
    }
    await check(step);
  }
}

describe('a DYNAMIC list and the search with its conditions', () => {
  it('have the same records after the first evaluation and after every write, and paging returns each member once', async () => {
    await fc.assert(
      fc.asyncProperty(
        filterBranch,
        fc.array(values, { maxLength: 6 }),
        fc.array(write, { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 4 }),
        (branch, initial, writes, pageSize) => run({ branch, initial, writes, pageSize, inList: [], manualPicks: [] }),
      ),
      { numRuns: 10, seed: 36_036, endOnFailure: true },
    );
  }, 600_000);

  it('with IN_LIST filters of a MANUAL list: each branch its search in (not in) the MANUAL list, after every write and membership change', async () => {
    await fc.assert(
      fc.asyncProperty(
        filterBranch,
        fc.array(values, { maxLength: 6 }),
        fc.array(manualWrite, { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.constantFrom<InList>('none', 'IN_LIST', 'NOT_IN_LIST'), { minLength: 1, maxLength: 3 }),
        fc.array(pick, { maxLength: 4 }),
        (branch, initial, writes, pageSize, inList, manualPicks) =>
          run({ branch, initial, writes, pageSize, inList, manualPicks }),
      ),
      { numRuns: 10, seed: 36_037, endOnFailure: true },
    );
  }, 600_000);
});
