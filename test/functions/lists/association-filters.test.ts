import type { RunningGateway } from '../../../local/local-gateway';
import type { LocalWebhooks } from '../../../local/local-webhooks';
import { startTestStream } from '../../support/test-stream';
import { crmClient, type CrmClient } from '../../support/crm-client';
import { install, startTestGateway, unique, type ErrorJson } from '../../support/harness';
import {
  branchOf,
  completed,
  createList,
  listsPath,
  members,
  stringFilter,
  type ListJson,
} from '../../support/list-api';

/**
 * ASSOCIATION filters over HTTP: a DYNAMIC list of contacts associated with companies in a
 * companies list. A contact's own writes (its create with associations, an association written
 * from its side) change its memberships at once; the other side of an association written from
 * the company, and a company joining or leaving the named list, reach the contact through the
 * table's stream (the local stream consumer, settled here); the evaluation over existing records
 * counts associated members; NUM_OCCURRENCES bounds; and the 400s of what such a filter may name.
 */
let gateway: RunningGateway;
let stream: LocalWebhooks;
let api: CrmClient;
const hubs = new Set<number>();

/** contact_to_company_unlabeled: the type a default association from a contact to a company holds. */
const contactToCompany = 279;

beforeAll(async () => {
  gateway = await startTestGateway();
  stream = await startTestStream(hubs);
  const installed = await install(gateway);
  hubs.add(installed.hubId);
  api = crmClient(gateway, installed.accessToken);
});

afterAll(async () => {
  await stream.stop();
  await gateway.close();
});

const sorted = (ids: (string | undefined)[]) => [...(ids as string[])].sort();

const associationFilter = (
  listId: string,
  operator: 'IN_LIST' | 'NOT_IN_LIST' = 'IN_LIST',
  refine: Record<string, unknown> = { type: 'NUM_OCCURRENCES', minOccurrences: 1 },
) => ({
  filterType: 'ASSOCIATION',
  listId,
  operator,
  associationTypeId: contactToCompany,
  associationCategory: 'HUBSPOT_DEFINED',
  coalescingRefineBy: refine,
});

async function newCompany(name: string): Promise<string> {
  const created = await api.post<{ id: string }>('/crm/v3/objects/companies', { properties: { name } });
  expect(created.status).toBe(201);
  return created.body.id;
}

/** A contact created with default associations to these companies. */
async function contactOf(tag: string, companies: string[]): Promise<string> {
  const created = await api.post<{ id: string }>('/crm/v3/objects/contacts', {
    properties: { email: `${unique('c').toLowerCase()}@assoc-lists.example`, firstname: tag },
    associations: companies.map((id) => ({
      to: { id },
      types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: contactToCompany }],
    })),
  });
  expect(created.status).toBe(201);
  return created.body.id;
}

async function change(listId: string, add: string[], remove: string[] = []): Promise<void> {
  const answer = await api.put(`${listsPath}/${listId}/memberships/add-and-remove`, {
    recordIdsToAdd: add,
    recordIdsToRemove: remove,
  });
  expect(answer.status).toBe(200);
}

async function associate(fromType: string, fromId: string, toType: string, toId: string): Promise<void> {
  const answer = await api.put(`/crm/v4/objects/${fromType}/${fromId}/associations/default/${toType}/${toId}`);
  expect(answer.status).toBe(200);
}

async function dissociate(fromType: string, fromId: string, toType: string, toId: string): Promise<void> {
  expect((await api.delete(`/crm/v4/objects/${fromType}/${fromId}/associations/${toType}/${toId}`)).status).toBe(204);
}

/** Every change committed so far has been through the stream consumer, and what it wrote too (a level further). */
async function settled(): Promise<void> {
  await stream.settle();
  await stream.settle();
}

async function refused(body: unknown): Promise<ErrorJson> {
  const answer = await api.post<ErrorJson>(listsPath, body);
  expect(answer.status).toBe(400);
  expect(answer.body).toMatchObject({ status: 'error', category: 'VALIDATION_ERROR' });
  expect(answer.body.correlationId).toEqual(expect.any(String));
  return answer.body;
}

describe('ASSOCIATION filters naming a MANUAL companies list', () => {
  it("follow the contact's own writes at once", async () => {
    const tag = unique('own');
    const [inside, outside] = [await newCompany(`${tag} in`), await newCompany(`${tag} out`)];
    const companies = await createList(api, 'MANUAL', undefined, '0-2');
    await change(companies.listId, [inside]);
    const associated = await createList(
      api,
      'DYNAMIC',
      branchOf(stringFilter('firstname', tag), associationFilter(companies.listId)),
    );
    const notAssociated = await createList(
      api,
      'DYNAMIC',
      branchOf(stringFilter('firstname', tag), associationFilter(companies.listId, 'NOT_IN_LIST')),
    );
    expect(associated.filterBranch).toMatchObject({
      filterBranches: [
        {
          filters: [
            {},
            {
              filterType: 'ASSOCIATION',
              listId: companies.listId,
              operator: 'IN_LIST',
              associationTypeId: contactToCompany,
              associationCategory: 'HUBSPOT_DEFINED',
              coalescingRefineBy: { type: 'NUM_OCCURRENCES', minOccurrences: 1 },
            },
          ],
        },
      ],
    });
    await completed(api, associated.listId);
    await completed(api, notAssociated.listId);

    const a = await contactOf(tag, [inside]);
    const b = await contactOf(tag, [outside]);
    const c = await contactOf(tag, []);
    expect(await members(api, associated.listId)).toEqual([a]);
    expect(await members(api, notAssociated.listId)).toEqual(sorted([b, c]));

    // Written from the contact's side: the contact is the record the write evaluates.
    await associate('contacts', b, 'companies', inside);
    expect(await members(api, associated.listId)).toEqual(sorted([a, b]));
    await dissociate('contacts', a, 'companies', inside);
    expect(await members(api, associated.listId)).toEqual([b]);
    expect(await members(api, notAssociated.listId)).toEqual(sorted([a, c]));

    // A property write evaluates the ASSOCIATION filter with the associations it holds.
    expect((await api.patch(`/crm/v3/objects/contacts/${b}`, { properties: { lastname: 'again' } })).status).toBe(200);
    expect(await members(api, associated.listId)).toEqual([b]);
    const read = await api.get<{ list: ListJson }>(`${listsPath}/${associated.listId}`);
    expect(read.body.list.size).toBe(1);
  });

  it("follow the company's side and the named list's changes through the stream", async () => {
    const tag = unique('stream');
    const [first, second] = [await newCompany(`${tag} 1`), await newCompany(`${tag} 2`)];
    const companies = await createList(api, 'MANUAL', undefined, '0-2');
    const associated = await createList(
      api,
      'DYNAMIC',
      branchOf(stringFilter('firstname', tag), associationFilter(companies.listId)),
    );
    await completed(api, associated.listId);
    const a = await contactOf(tag, [first]);
    const b = await contactOf(tag, [second]);
    const c = await contactOf(tag, []);
    expect(await members(api, associated.listId)).toEqual([]);

    await change(companies.listId, [first]);
    await settled();
    expect(await members(api, associated.listId)).toEqual([a]);

    // Written from the company's side: the contact's side changes in the same transaction, its lists after it.
    await associate('companies', first, 'contacts', c);
    await settled();
    expect(await members(api, associated.listId)).toEqual(sorted([a, c]));

    await change(companies.listId, [second], [first]);
    await settled();
    expect(await members(api, associated.listId)).toEqual([b]);

    await dissociate('companies', second, 'contacts', b);
    await settled();
    expect(await members(api, associated.listId)).toEqual([]);
    const read = await api.get<{ list: ListJson }>(`${listsPath}/${associated.listId}`);
    expect(read.body.list.size).toBe(0);
  });
});

describe('ASSOCIATION filters naming a DYNAMIC companies list', () => {
  it('follow a company that joins and leaves the list by its own write', async () => {
    const tag = unique('dyn');
    const company = await newCompany(`${tag} plain`);
    const companies = await createList(
      api,
      'DYNAMIC',
      branchOf({
        filterType: 'PROPERTY',
        property: 'domain',
        operation: { operationType: 'STRING', operator: 'IS_EQUAL_TO', value: `${tag.toLowerCase()}.example` },
      }),
      '0-2',
    );
    const associated = await createList(
      api,
      'DYNAMIC',
      branchOf(stringFilter('firstname', tag), associationFilter(companies.listId)),
    );
    await completed(api, companies.listId);
    await completed(api, associated.listId);
    const contact = await contactOf(tag, [company]);
    expect(await members(api, associated.listId)).toEqual([]);

    const patch = (domain: string) => api.patch(`/crm/v3/objects/companies/${company}`, { properties: { domain } });
    expect((await patch(`${tag.toLowerCase()}.example`)).status).toBe(200);
    expect(await members(api, companies.listId)).toEqual([company]);
    await settled();
    expect(await members(api, associated.listId)).toEqual([contact]);

    expect((await patch('elsewhere.example')).status).toBe(200);
    await settled();
    expect(await members(api, associated.listId)).toEqual([]);
  });
});

describe('the evaluation of a list with ASSOCIATION filters', () => {
  it('counts the associated members of existing contacts, within minOccurrences and maxOccurrences', async () => {
    const tag = unique('eval');
    const [k1, k2, k3] = [await newCompany(`${tag} 1`), await newCompany(`${tag} 2`), await newCompany(`${tag} 3`)];
    const companies = await createList(api, 'MANUAL', undefined, '0-2');
    await change(companies.listId, [k1, k2]);
    const none = await contactOf(tag, [k3]);
    const one = await contactOf(tag, [k1, k3]);
    const two = await contactOf(tag, [k1, k2]);
    const atLeastOne = await createList(
      api,
      'DYNAMIC',
      branchOf(stringFilter('firstname', tag), associationFilter(companies.listId)),
    );
    const exactlyTwo = await createList(
      api,
      'DYNAMIC',
      branchOf(
        stringFilter('firstname', tag),
        associationFilter(companies.listId, 'IN_LIST', {
          type: 'NUM_OCCURRENCES',
          minOccurrences: 2,
          maxOccurrences: 2,
        }),
      ),
    );
    const notOne = await createList(
      api,
      'DYNAMIC',
      branchOf(
        stringFilter('firstname', tag),
        associationFilter(companies.listId, 'NOT_IN_LIST', {
          type: 'NUM_OCCURRENCES',
          minOccurrences: 1,
          maxOccurrences: 1,
        }),
      ),
    );
    const snapshot = await createList(
      api,
      'SNAPSHOT',
      branchOf(stringFilter('firstname', tag), associationFilter(companies.listId)),
    );
    expect((await completed(api, atLeastOne.listId)).size).toBe(2);
    await completed(api, exactlyTwo.listId);
    await completed(api, notOne.listId);
    await completed(api, snapshot.listId);
    expect(await members(api, atLeastOne.listId)).toEqual(sorted([one, two]));
    expect(await members(api, exactlyTwo.listId)).toEqual([two]);
    expect(await members(api, notOne.listId)).toEqual(sorted([none, two]));
    expect(await members(api, snapshot.listId)).toEqual(sorted([one, two]));

    await change(companies.listId, [k3]);
    await settled();
    expect(await members(api, atLeastOne.listId)).toEqual(sorted([none, one, two]));
    expect(await members(api, exactlyTwo.listId)).toEqual(sorted([one, two]));
    expect(await members(api, notOne.listId)).toEqual(sorted([one, two]));
    // A SNAPSHOT list's members change only through the API.
    expect(await members(api, snapshot.listId)).toEqual(sorted([one, two]));
  });
});

describe('what an ASSOCIATION filter may name', () => {
  const body = (filter: unknown, objectTypeId = '0-1') => ({
    name: unique('Bad'),
    objectTypeId,
    processingType: 'DYNAMIC',
    filterBranch: branchOf(filter),
  });
  const path = (field: string) => `filterBranches[0].filters[0].${field}`;

  it('answers 400 naming the field for a filter that is not well formed', async () => {
    const companies = await createList(api, 'MANUAL', undefined, '0-2');
    const good = associationFilter(companies.listId);
    const cases: [Record<string, unknown>, string][] = [
      [{ ...good, listId: 'abc' }, 'listId'],
      [{ ...good, operator: 'IS_IN' }, 'operator'],
      [{ ...good, associationTypeId: 'x' }, 'associationTypeId'],
      [{ ...good, associationCategory: 'WORK_DEFINED' }, 'associationCategory'],
      [{ ...good, coalescingRefineBy: undefined }, 'coalescingRefineBy'],
      [{ ...good, coalescingRefineBy: { type: 'SET_OCCURRENCES', setType: 'ANY' } }, 'coalescingRefineBy.type'],
      [
        { ...good, coalescingRefineBy: { type: 'NUM_OCCURRENCES', minOccurrences: -1 } },
        'coalescingRefineBy.minOccurrences',
      ],
      [
        { ...good, coalescingRefineBy: { type: 'NUM_OCCURRENCES', minOccurrences: 3, maxOccurrences: 2 } },
        'coalescingRefineBy.maxOccurrences',
      ],
    ];
    for (const [filter, field] of cases) {
      const error = await refused(body(filter));
      expect(error.context).toEqual({ filterBranch: [path(field)] });
    }
  });

  it('answers 400 for a list that is missing, of another type than the association leads to, or an association type that does not fit', async () => {
    const companies = await createList(api, 'MANUAL', undefined, '0-2');
    const contacts = await createList(api, 'MANUAL');
    const missing = await refused(body(associationFilter('999999999')));
    expect(missing.context).toEqual({ filterBranch: [path('listId')] });
    expect(missing.message).toContain('there is no list 999999999');

    const wrongList = await refused(body(associationFilter(contacts.listId)));
    expect(wrongList.context).toEqual({ filterBranch: [path('associationTypeId')] });

    const wrongCategory = await refused(
      body({ ...associationFilter(companies.listId), associationCategory: 'USER_DEFINED' }),
    );
    expect(wrongCategory.context).toEqual({ filterBranch: [path('associationTypeId')] });

    // A deals list: 279 leads from contacts, not from deals.
    const wrongFrom = await refused(body(associationFilter(companies.listId), '0-3'));
    expect(wrongFrom.context).toEqual({ filterBranch: [path('associationTypeId')] });

    const wrongTarget = await refused(body({ ...associationFilter(companies.listId), toObjectTypeId: '0-3' }));
    expect(wrongTarget.context).toEqual({ filterBranch: [path('toObjectTypeId')] });
  });

  it('keeps the named list from being deleted, and refuses a cycle through associations', async () => {
    const companies = await createList(api, 'MANUAL', undefined, '0-2');
    const naming = await createList(api, 'DYNAMIC', branchOf(associationFilter(companies.listId)));
    const deleted = await api.delete<ErrorJson>(`${listsPath}/${companies.listId}`);
    expect(deleted.status).toBe(400);
    expect(deleted.body.message).toContain(naming.listId);

    // A companies list naming the contacts list back, through company_to_contact (280): then the contacts list refiltered to name it.
    const back = await createList(
      api,
      'DYNAMIC',
      branchOf({ ...associationFilter(naming.listId), associationTypeId: 280 }),
      '0-2',
    );
    await completed(api, naming.listId);
    await completed(api, back.listId);
    const cycle = await api.put<ErrorJson>(`${listsPath}/${naming.listId}/update-list-filters`, {
      filterBranch: branchOf(associationFilter(back.listId)),
    });
    expect(cycle.status).toBe(400);
    expect(cycle.body.message).toContain('cycle');
    expect(cycle.body.context).toEqual({ filterBranch: [path('listId')] });

    expect((await api.delete(`${listsPath}/${back.listId}`)).status).toBe(204);
    expect((await api.delete(`${listsPath}/${naming.listId}`)).status).toBe(204);
    expect((await api.delete(`${listsPath}/${companies.listId}`)).status).toBe(204);
  });
});

describe('ASSOCIATION branches', () => {
  const cityBranch = (city: string, operator: 'IN_LIST' | 'NOT_IN_LIST' = 'IN_LIST', extra = {}) => ({
    filterBranchType: 'ASSOCIATION',
    objectTypeId: '0-2',
    operator,
    associationTypeId: contactToCompany,
    associationCategory: 'HUBSPOT_DEFINED',
    filterBranches: [],
    filters: [
      {
        filterType: 'PROPERTY',
        property: 'city',
        operation: { operationType: 'STRING', operator: 'IS_EQUAL_TO', value: city },
      },
    ],
    ...extra,
  });
  const withBranch = (tag: string, branch: unknown) => ({
    filterBranchType: 'OR',
    filters: [],
    filterBranches: [{ filterBranchType: 'AND', filters: [stringFilter('firstname', tag)], filterBranches: [branch] }],
  });
  async function companyAt(city: string): Promise<string> {
    const created = await api.post<{ id: string }>('/crm/v3/objects/companies', {
      properties: { name: unique('Co'), city },
    });
    expect(created.status).toBe(201);
    return created.body.id;
  }
  const setCity = async (id: string, city: string) =>
    expect((await api.patch(`/crm/v3/objects/companies/${id}`, { properties: { city } })).status).toBe(200);

  it('hold the contacts with an associated company whose values pass the filters, and follow those values', async () => {
    const tag = unique('branch');
    const city = `${tag} City`;
    const [k1, k2] = [await companyAt(city), await companyAt('Elsewhere')];
    const before = await contactOf(tag, [k1]);
    const withCompany = await createList(api, 'DYNAMIC', withBranch(tag, cityBranch(city)));
    const without = await createList(api, 'DYNAMIC', withBranch(tag, cityBranch(city, 'NOT_IN_LIST')));
    expect(withCompany.filterBranch).toMatchObject({
      filterBranches: [
        {
          filterBranches: [
            {
              filterBranchType: 'ASSOCIATION',
              objectTypeId: '0-2',
              operator: 'IN_LIST',
              associationTypeId: contactToCompany,
              filters: [{ filterType: 'PROPERTY', property: 'city' }],
            },
          ],
        },
      ],
    });
    await completed(api, withCompany.listId);
    await completed(api, without.listId);
    expect(await members(api, withCompany.listId)).toEqual([before]);

    const a = await contactOf(tag, [k1]);
    const b = await contactOf(tag, [k2]);
    expect(await members(api, withCompany.listId)).toEqual(sorted([before, a]));
    expect(await members(api, without.listId)).toEqual([b]);

    await setCity(k2, city);
    await settled();
    expect(await members(api, withCompany.listId)).toEqual(sorted([before, a, b]));
    await setCity(k1, 'Gone');
    await settled();
    expect(await members(api, withCompany.listId)).toEqual([b]);
    expect(await members(api, without.listId)).toEqual(sorted([before, a]));
  });

  it('answer 400 naming what is wrong', async () => {
    const path = 'filterBranches[0].filterBranches[0]';
    const cases: [unknown, string][] = [
      [cityBranch('X', 'IN_LIST', { objectTypeId: '2-999999' }), `${path}.objectTypeId`],
      [cityBranch('X', 'IN_LIST', { operator: 'ANY' }), `${path}.operator`],
      [cityBranch('X', 'IN_LIST', { associationTypeId: 3 }), `${path}.associationTypeId`],
      [
        cityBranch('X', 'IN_LIST', {
          filters: [{ filterType: 'IN_LIST', listId: '1', operator: 'IN_LIST' }],
        }),
        `${path}.filters[0].filterType`,
      ],
      [
        cityBranch('X', 'IN_LIST', {
          filterBranches: [{ filterBranchType: 'NOT_ANY', filters: [], filterBranches: [] }],
        }),
        `${path}.filterBranches[0]`,
      ],
      [
        cityBranch('X', 'IN_LIST', {
          filters: [
            {
              filterType: 'PROPERTY',
              property: 'firstname',
              operation: { operationType: 'ALL_PROPERTY', operator: 'IS_KNOWN' },
            },
          ],
        }),
        `${path}.filters[0].property`,
      ],
    ];
    const atRoot = await refused({
      name: unique('Bad'),
      objectTypeId: '0-1',
      processingType: 'DYNAMIC',
      filterBranch: { filterBranchType: 'OR', filters: [], filterBranches: [cityBranch('X')] },
    });
    expect(atRoot.context).toEqual({ filterBranch: ['filterBranches[0].filterBranchType'] });
    expect(atRoot.message).toContain('must be AND branches');
    for (const [branch, field] of cases) {
      const error = await refused({
        name: unique('Bad'),
        objectTypeId: '0-1',
        processingType: 'DYNAMIC',
        filterBranch: withBranch('x', branch),
      });
      expect({ field, context: error.context }).toEqual({ field, context: { filterBranch: [field] } });
    }
  });
});
