import type { RunningGateway } from '../../../local/local-gateway';
import { dynamoCallCounter } from '../../../shared/db/client';
import { crmClient, type CrmClient, type Json } from '../../support/crm-client';
import { install, startTestGateway, unique } from '../../support/harness';

let gateway: RunningGateway;
let api: CrmClient;
let otherApi: CrmClient;
const searchPath = '/crm/v3/objects/companies/search';

/** The fixture account: known values, so every operator has an exact expected answer. */
const fixtures = [
  {
    key: 'acme',
    properties: {
      name: 'Acme Widgets, Inc.',
      numberofemployees: '120',
      industry: 'COMPUTER_SOFTWARE',
      closedate: '2024-03-01T00:00:00.000Z',
      city: 'Boston',
      description: 'jane@hubspot.com sells widgets',
    },
  },
  {
    key: 'globex',
    properties: {
      name: 'Globex',
      numberofemployees: '15',
      industry: 'BANKING',
      closedate: '2023-06-15T12:00:00.000Z',
      city: 'boston',
    },
  },
  {
    key: 'initech',
    properties: {
      name: 'Initech Software',
      numberofemployees: '900',
      industry: 'COMPUTER_SOFTWARE',
      city: 'Austin',
      phone: '+1 512 555 0199',
    },
  },
  {
    key: 'umbrella',
    properties: {
      name: 'Umbrella',
      numberofemployees: '2',
      city: 'Raccoon City',
      website: 'https://umbrella.example/about',
    },
  },
  { key: 'hooli', properties: { name: 'Hooli', industry: 'INTERNET', description: 'bob@example.org' } },
] as const;
const ids: Record<string, string> = {};
const domains: Record<string, string> = {};

beforeAll(async () => {
  gateway = await startTestGateway();
  api = crmClient(gateway, (await install(gateway)).accessToken);
  otherApi = crmClient(gateway, (await install(gateway)).accessToken);
  // One at a time: creation order is the default search order.
  for (const fixture of fixtures) {
    const domain = `${unique(fixture.key)}.example`.toLowerCase();
    const response = await api.post('/crm/v3/objects/companies', { properties: { ...fixture.properties, domain } });
    expect(response.status).toBe(201);
    ids[fixture.key] = String(response.body.id);
    domains[fixture.key] = domain;
  }
});

afterAll(async () => {
  await gateway.close();
});

type Filter = {
  propertyName: string;
  operator: string;
  value?: string | number;
  highValue?: string;
  values?: string[];
};

async function search(body: unknown, client = api): Promise<Json & { total?: number }> {
  const response = await client.post<Json & { total?: number }>(searchPath, body);
  expect(response.status).toBe(200);
  return response.body;
}

async function idsOf(filters: Filter[]): Promise<string[]> {
  const body = await search({ filterGroups: [{ filters }], limit: 100 });
  return (body.results ?? []).map((result) => result.id);
}

const keysOf = (found: string[]): string[] => found.map((id) => Object.keys(ids).find((key) => ids[key] === id) ?? id);

describe('POST /crm/v3/objects/companies/search', () => {
  it('answers every active company oldest first, with the default properties and an exact total', async () => {
    const body = await search({});

    expect(body.total).toBe(fixtures.length);
    expect(keysOf((body.results ?? []).map((result) => result.id))).toEqual([
      'acme',
      'globex',
      'initech',
      'umbrella',
      'hooli',
    ]);
    expect(Object.keys(body.results?.[0]?.properties ?? {}).sort()).toEqual([
      'createdate',
      'domain',
      'hs_lastmodifieddate',
      'hs_object_id',
      'name',
    ]);
    expect(body.results?.[0]).toMatchObject({
      archived: false,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(body.paging).toBeUndefined();
  });

  it.each([
    [
      'EQ on a string, case-insensitive',
      [{ propertyName: 'city', operator: 'EQ', value: 'BOSTON' }],
      ['acme', 'globex'],
    ],
    [
      'NEQ, records without a value included',
      [{ propertyName: 'city', operator: 'NEQ', value: 'boston' }],
      ['initech', 'umbrella', 'hooli'],
    ],
    [
      'LT on a number, compared as a number',
      [{ propertyName: 'numberofemployees', operator: 'LT', value: '100' }],
      ['globex', 'umbrella'],
    ],
    ['LTE', [{ propertyName: 'numberofemployees', operator: 'LTE', value: '120' }], ['acme', 'globex', 'umbrella']],
    ['GT', [{ propertyName: 'numberofemployees', operator: 'GT', value: 120 }], ['initech']],
    ['GTE', [{ propertyName: 'numberofemployees', operator: 'GTE', value: '15' }], ['acme', 'globex', 'initech']],
    [
      'BETWEEN, inclusive',
      [{ propertyName: 'numberofemployees', operator: 'BETWEEN', value: '2', highValue: '120' }],
      ['acme', 'globex', 'umbrella'],
    ],
    [
      'BETWEEN on a datetime with epoch ms and ISO',
      [
        {
          propertyName: 'closedate',
          operator: 'BETWEEN',
          value: String(Date.parse('2023-06-15T12:00:00Z')),
          highValue: '2024-01-01',
        },
      ],
      ['globex'],
    ],
    [
      'GT on a datetime as ISO',
      [{ propertyName: 'closedate', operator: 'GT', value: '2024-01-01T00:00:00Z' }],
      ['acme'],
    ],
    [
      'IN on a string',
      [{ propertyName: 'city', operator: 'IN', values: ['austin', 'raccoon city'] }],
      ['initech', 'umbrella'],
    ],
    ['NOT_IN', [{ propertyName: 'city', operator: 'NOT_IN', values: ['boston'] }], ['initech', 'umbrella', 'hooli']],
    [
      'EQ on an enumeration',
      [{ propertyName: 'industry', operator: 'EQ', value: 'COMPUTER_SOFTWARE' }],
      ['acme', 'initech'],
    ],
    [
      'EQ on an enumeration is case-sensitive',
      [{ propertyName: 'industry', operator: 'EQ', value: 'computer_software' }],
      [],
    ],
    ['HAS_PROPERTY', [{ propertyName: 'phone', operator: 'HAS_PROPERTY' }], ['initech']],
    ['NOT_HAS_PROPERTY', [{ propertyName: 'numberofemployees', operator: 'NOT_HAS_PROPERTY' }], ['hooli']],
    ['CONTAINS_TOKEN on a word', [{ propertyName: 'name', operator: 'CONTAINS_TOKEN', value: 'WIDGETS' }], ['acme']],
    [
      'CONTAINS_TOKEN with a wildcard',
      [{ propertyName: 'description', operator: 'CONTAINS_TOKEN', value: '*@hubspot.com' }],
      ['acme'],
    ],
    [
      'NOT_CONTAINS_TOKEN',
      [{ propertyName: 'name', operator: 'NOT_CONTAINS_TOKEN', value: 'soft*' }],
      ['acme', 'globex', 'umbrella', 'hooli'],
    ],
    [
      'filters in a group are AND-ed',
      [
        { propertyName: 'city', operator: 'EQ', value: 'boston' },
        { propertyName: 'numberofemployees', operator: 'GT', value: '50' },
      ],
      ['acme'],
    ],
  ])('%s', async (_label, filters, expected) => {
    expect(keysOf(await idsOf(filters as Filter[]))).toEqual(expected);
  });

  it('OR-s filter groups', async () => {
    const body = await search({
      filterGroups: [
        { filters: [{ propertyName: 'industry', operator: 'EQ', value: 'BANKING' }] },
        { filters: [{ propertyName: 'city', operator: 'EQ', value: 'austin' }] },
      ],
    });

    expect(keysOf((body.results ?? []).map((result) => result.id))).toEqual(['globex', 'initech']);
    expect(body.total).toBe(2);
  });

  it('sorts by {propertyName, direction} and by "-prop", values missing last', async () => {
    const objectForm = await search({ sorts: [{ propertyName: 'numberofemployees', direction: 'DESCENDING' }] });
    const stringForm = await search({ sorts: ['-numberofemployees'] });
    const ascending = await search({ sorts: ['numberofemployees'] });

    expect(keysOf((objectForm.results ?? []).map((result) => result.id))).toEqual([
      'initech',
      'acme',
      'globex',
      'umbrella',
      'hooli',
    ]);
    expect(stringForm.results?.map((result) => result.id)).toEqual(objectForm.results?.map((result) => result.id));
    expect(keysOf((ascending.results ?? []).map((result) => result.id))).toEqual([
      'umbrella',
      'globex',
      'acme',
      'initech',
      'hooli',
    ]);
  });

  it('pages with after as a string or a number, each record once', async () => {
    const first = await search({ limit: 2, sorts: ['name'] });
    const second = await search({ limit: 2, sorts: ['name'], after: first.paging?.next.after });
    const third = await search({ limit: 2, sorts: ['name'], after: Number(second.paging?.next.after) });

    expect(first.paging?.next.after).toBe('2');
    expect(third.paging).toBeUndefined();
    expect(
      keysOf(
        [...(first.results ?? []), ...(second.results ?? []), ...(third.results ?? [])].map((result) => result.id),
      ),
    ).toEqual(['acme', 'globex', 'hooli', 'initech', 'umbrella']);
    expect([first.total, second.total, third.total]).toEqual([5, 5, 5]);
  });

  it('matches query against name, domain, website and phone', async () => {
    const byName = await search({ query: 'initech' });
    const byWebsite = await search({ query: 'umbrella.example/about' });
    const byPhone = await search({ query: '555 0199' });
    const byDomain = await search({ query: domains.hooli });

    expect(keysOf((byName.results ?? []).map((result) => result.id))).toEqual(['initech']);
    expect(keysOf((byWebsite.results ?? []).map((result) => result.id))).toEqual(['umbrella']);
    expect(keysOf((byPhone.results ?? []).map((result) => result.id))).toEqual(['initech']);
    expect(keysOf((byDomain.results ?? []).map((result) => result.id))).toEqual(['hooli']);
  });

  it('returns the requested properties, null when unset', async () => {
    const body = await search({
      filterGroups: [{ filters: [{ propertyName: 'hs_object_id', operator: 'EQ', value: ids.hooli }] }],
      properties: ['city', 'industry'],
    });

    expect(body.results?.[0]?.properties).toEqual({ city: null, industry: 'INTERNET' });
  });

  it('finds a company by domain with two GetItem calls, whatever the account size', async () => {
    dynamoCallCounter.reset();
    const body = await search({
      filterGroups: [{ filters: [{ propertyName: 'domain', operator: 'EQ', value: domains.globex?.toUpperCase() }] }],
    });

    expect(keysOf((body.results ?? []).map((result) => result.id))).toEqual(['globex']);
    expect(dynamoCallCounter.callsApartFromRetries()).toEqual({ GetItemCommand: 2 });
  });

  it('sees a create, an update and an archive at once (read-your-writes)', async () => {
    const { accessToken } = await install(gateway);
    const own = crmClient(gateway, accessToken);
    const filter = (name: string) => ({
      filterGroups: [{ filters: [{ propertyName: 'name', operator: 'EQ', value: name }] }],
    });
    const created = await own.post('/crm/v3/objects/companies', { properties: { name: 'Fresh' } });
    const afterCreate = await search(filter('fresh'), own);
    await own.patch(`/crm/v3/objects/companies/${created.body.id}`, { properties: { name: 'Renamed' } });
    const oldName = await search(filter('fresh'), own);
    const newName = await search(filter('renamed'), own);
    await own.delete(`/crm/v3/objects/companies/${created.body.id}`);
    const afterArchive = await search({}, own);

    expect(afterCreate.results?.map((result) => result.id)).toEqual([created.body.id]);
    expect(oldName.total).toBe(0);
    expect(newName.results?.map((result) => result.id)).toEqual([created.body.id]);
    expect(afterArchive).toEqual({ total: 0, results: [] });
  });

  it('sees batch-created and batch-archived companies at once', async () => {
    const { accessToken } = await install(gateway);
    const own = crmClient(gateway, accessToken);
    const created = await own.post('/crm/v3/objects/companies/batch/create', {
      inputs: [{ properties: { name: 'Batch One' } }, { properties: { name: 'Batch Two' } }],
    });
    const createdIds = (created.body.results ?? []).map((result) => result.id).sort();
    const afterCreate = await search({ query: 'batch' }, own);
    await own.post('/crm/v3/objects/companies/batch/archive', { inputs: [{ id: createdIds[0] }] });
    const afterArchive = await search({ query: 'batch' }, own);

    expect(afterCreate.results?.map((result) => result.id).sort()).toEqual(createdIds);
    expect(afterArchive.results?.map((result) => result.id)).toEqual([createdIds[1]]);
  });

  it("never answers another account's companies, even by their domain or id", async () => {
    const byDomain = await search(
      { filterGroups: [{ filters: [{ propertyName: 'domain', operator: 'EQ', value: domains.acme }] }] },
      otherApi,
    );
    const byId = await search(
      { filterGroups: [{ filters: [{ propertyName: 'hs_object_id', operator: 'EQ', value: ids.acme }] }] },
      otherApi,
    );
    const everything = await search({ query: 'acme' }, otherApi);

    expect([byDomain.total, byId.total, everything.total]).toEqual([0, 0, 0]);
  });

  it('filters on a custom property by its type', async () => {
    const { accessToken } = await install(gateway);
    const own = crmClient(gateway, accessToken);
    const created = await own.post('/crm/v3/properties/companies', {
      name: 'tier_score',
      label: 'Tier score',
      type: 'number',
      fieldType: 'number',
      groupName: 'companyinformation',
    });
    expect(created.status).toBe(201);
    await own.post('/crm/v3/objects/companies', { properties: { name: 'Nine', tier_score: '9' } });
    await own.post('/crm/v3/objects/companies', { properties: { name: 'Ten', tier_score: '10.0' } });

    const body = await search(
      {
        filterGroups: [{ filters: [{ propertyName: 'tier_score', operator: 'GTE', value: '10' }] }],
        properties: ['name'],
      },
      own,
    );

    expect(body.results?.map((result) => result.properties)).toEqual([{ name: 'Ten' }]);
  });
});

describe('search request errors', () => {
  const filter = { propertyName: 'name', operator: 'EQ', value: 'x' };
  it.each([
    [
      '6 filter groups',
      { filterGroups: Array.from({ length: 6 }, () => ({ filters: [filter] })) },
      /at most 5 filterGroups/,
    ],
    [
      '7 filters in a group',
      { filterGroups: [{ filters: Array.from({ length: 7 }, () => filter) }] },
      /at most 6 filters/,
    ],
    [
      '19 filters in all',
      {
        filterGroups: [
          ...Array.from({ length: 3 }, () => ({ filters: Array.from({ length: 6 }, () => filter) })),
          { filters: [filter] },
        ],
      },
      /at most 18 filters in all/,
    ],
    [
      'an unknown property',
      { filterGroups: [{ filters: [{ propertyName: 'no_such_property', operator: 'EQ', value: 'x' }] }] },
      /no company property named "no_such_property"/,
    ],
    ['an unknown sort property', { sorts: ['-no_such_property'] }, /no company property named "no_such_property"/],
    ['two sorts', { sorts: ['name', 'domain'] }, /one sorting rule/],
    ['a limit of 201', { limit: 201 }, /limit must be between 1 and 200/],
    ['paging beyond 10,000', { after: '10000' }, /at most 10000 results/],
    ['a cursor that is not a number', { after: 'abc' }, /after must be/],
    [
      'a number filter with text',
      { filterGroups: [{ filters: [{ propertyName: 'numberofemployees', operator: 'GT', value: 'many' }] }] },
      /is not a number/,
    ],
    [
      'BETWEEN without highValue',
      { filterGroups: [{ filters: [{ propertyName: 'numberofemployees', operator: 'BETWEEN', value: '1' }] }] },
      /highValue is required/,
    ],
    [
      'IN without values',
      { filterGroups: [{ filters: [{ propertyName: 'city', operator: 'IN' }] }] },
      /values must list/,
    ],
    [
      'an unknown operator',
      { filterGroups: [{ filters: [{ propertyName: 'city', operator: 'STARTS_WITH', value: 'a' }] }] },
      /operator/,
    ],
    ['a body over 3,000 characters', { query: 'x'.repeat(3000) }, /at most 3000 are allowed/],
  ])('answers 400 VALIDATION_ERROR for %s', async (_label, body, message) => {
    const response = await api.post<Json>(searchPath, body);

    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      status: 'error',
      category: 'VALIDATION_ERROR',
      correlationId: expect.any(String),
    });
    expect(response.body.message).toMatch(message);
    expect(Object.keys(response.body.context ?? {}).length).toBeGreaterThan(0);
  });

  // Regression: the size check once serialized the parsed body recursively and overflowed the stack (500).
  it.each([
    ['an unknown field', (deep: string) => `{"filterGroups":[],"extra":${deep}}`],
    [
      'an unknown field of a filter',
      (deep: string) =>
        `{"filterGroups":[{"filters":[{"propertyName":"name","operator":"EQ","value":"x","extra":${deep}}]}]}`,
    ],
  ])('answers 400 VALIDATION_ERROR, not 500, to a value nested 5,000 levels deep in %s', async (_label, bodyWith) => {
    const deepArray = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const deepObject = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;

    for (const deep of [deepArray, deepObject]) {
      // Sent as text: the client's own JSON.stringify would overflow first.
      const response = await api.post<Json>(searchPath, bodyWith(deep));

      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({
        status: 'error',
        category: 'VALIDATION_ERROR',
        correlationId: expect.any(String),
        context: { body: [expect.any(String)] },
      });
      expect(response.body.message).toMatch(/at most 3000 are allowed/);
    }
  });
});
