import { Client } from '@hubspot/api-client';
import type { RunningGateway } from '../../../local/local-gateway';
import { install, startTestGateway, unique } from '../../support/harness';

/** The official SDK's searchApi, unchanged but for the base URL. */
let gateway: RunningGateway;
let client: Client;
type SearchRequest = Parameters<Client['crm']['companies']['searchApi']['doSearch']>[0];
type Filter = NonNullable<NonNullable<SearchRequest['filterGroups']>[number]['filters']>[number];
const ids: Record<string, string> = {};
let tag = '';

beforeAll(async () => {
  gateway = await startTestGateway();
  client = new Client({
    accessToken: (await install(gateway)).accessToken,
    basePath: gateway.baseUrl,
    numberOfApiCallRetries: 0,
  });
  tag = unique('sdk').toLowerCase();
  const rows: { key: string; properties: Record<string, string> }[] = [
    {
      key: 'alpha',
      properties: {
        name: 'Alpha Robotics',
        numberofemployees: '10',
        industry: 'INTERNET',
        city: 'Oslo',
        closedate: '2024-01-10T00:00:00.000Z',
      },
    },
    { key: 'beta', properties: { name: 'Beta Foods', numberofemployees: '250', industry: 'BANKING', city: 'Bergen' } },
    {
      key: 'gamma',
      properties: {
        name: 'Gamma Robotics',
        numberofemployees: '40',
        city: 'oslo',
        closedate: '2025-05-05T00:00:00.000Z',
      },
    },
  ];
  for (const row of rows) {
    const company = await client.crm.companies.basicApi.create({
      properties: { ...row.properties, domain: `${row.key}-${tag}.example` },
      associations: [],
    });
    ids[row.key] = company.id;
  }
});

afterAll(async () => {
  await gateway.close();
});

const filter = (propertyName: string, operator: string, rest: Partial<Filter> = {}): Filter => ({
  propertyName,
  operator: operator as Filter['operator'],
  ...rest,
});

async function keys(filters: Filter[], extra: Partial<SearchRequest> = {}): Promise<string[]> {
  const answer = await client.crm.companies.searchApi.doSearch({
    filterGroups: [{ filters }],
    limit: 100,
    ...extra,
  } as SearchRequest);
  return answer.results.map((result) => Object.keys(ids).find((key) => ids[key] === result.id) ?? result.id);
}

describe('crm.companies.searchApi.doSearch', () => {
  it.each([
    ['EQ', [filter('city', 'EQ', { value: 'OSLO' })], ['alpha', 'gamma']],
    ['NEQ', [filter('city', 'NEQ', { value: 'oslo' })], ['beta']],
    ['LT', [filter('numberofemployees', 'LT', { value: '40' })], ['alpha']],
    ['LTE', [filter('numberofemployees', 'LTE', { value: '40' })], ['alpha', 'gamma']],
    ['GT', [filter('numberofemployees', 'GT', { value: '40' })], ['beta']],
    ['GTE', [filter('numberofemployees', 'GTE', { value: '40' })], ['beta', 'gamma']],
    [
      'BETWEEN',
      [filter('closedate', 'BETWEEN', { value: String(Date.parse('2024-01-01')), highValue: '2024-12-31T23:59:59Z' })],
      ['alpha'],
    ],
    ['IN', [filter('industry', 'IN', { values: ['INTERNET', 'BANKING'] })], ['alpha', 'beta']],
    ['NOT_IN', [filter('city', 'NOT_IN', { values: ['bergen'] })], ['alpha', 'gamma']],
    ['HAS_PROPERTY', [filter('closedate', 'HAS_PROPERTY')], ['alpha', 'gamma']],
    ['NOT_HAS_PROPERTY', [filter('industry', 'NOT_HAS_PROPERTY')], ['gamma']],
    ['CONTAINS_TOKEN', [filter('name', 'CONTAINS_TOKEN', { value: 'robot*' })], ['alpha', 'gamma']],
    ['NOT_CONTAINS_TOKEN', [filter('name', 'NOT_CONTAINS_TOKEN', { value: 'robotics' })], ['beta']],
  ])('filters with %s', async (_operator, filters, expected) => {
    expect(await keys(filters)).toEqual(expected);
  });

  it('sorts with the string form and the object form', async () => {
    const descending = await keys([], { sorts: ['-numberofemployees'] });
    const objectForm = await keys([], {
      sorts: [{ propertyName: 'name', direction: 'DESCENDING' }] as unknown as string[],
    });

    expect(descending).toEqual(['beta', 'gamma', 'alpha']);
    expect(objectForm).toEqual(['gamma', 'beta', 'alpha']);
  });

  it('pages with after and reports the total', async () => {
    const first = await client.crm.companies.searchApi.doSearch({
      filterGroups: [],
      sorts: ['name'],
      limit: 2,
      properties: ['name'],
    } as SearchRequest);
    const second = await client.crm.companies.searchApi.doSearch({
      filterGroups: [],
      sorts: ['name'],
      limit: 2,
      after: first.paging?.next?.after,
      properties: ['name'],
    } as SearchRequest);

    expect(first.total).toBe(3);
    expect(first.results.map((result) => result.properties.name)).toEqual(['Alpha Robotics', 'Beta Foods']);
    expect(second.results.map((result) => result.properties.name)).toEqual(['Gamma Robotics']);
    expect(second.paging).toBeUndefined();
    expect(first.results[0]?.createdAt).toBeInstanceOf(Date);
  });

  it('searches the query string', async () => {
    const answer = await client.crm.companies.searchApi.doSearch({ query: `gamma-${tag}`, limit: 10 } as SearchRequest);

    expect(answer.results.map((result) => result.id)).toEqual([ids.gamma]);
    expect(answer.total).toBe(1);
  });
});
