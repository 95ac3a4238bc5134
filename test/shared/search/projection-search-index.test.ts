import { companyObjectType } from '../../../shared/objects/object-types';
import { dynamoCallCounter } from '../../../shared/db/client';
import { createRecord } from '../../../shared/records/create-record';
import { archiveRecord } from '../../../shared/records/archive-record';
import { createProjectionSearchIndex, searchRecords } from '../../../shared/search/search-records';
import type { SearchInput } from '../../../shared/search/search-request';
import { searchShards } from '../../../shared/db/keys';
import { provision } from '../../support/harness';

/**
 * The projection search reads each shard's first page with the values the answer shows and the
 * later pages with the compared forms alone, then reads the page's missing values by key. With
 * pages of one item most of a 40-company account comes back without values: the answers must be
 * those of one-page-per-shard reads, value for value.
 */
describe('projection search index', () => {
  let hubId: number;
  const ids: string[] = [];

  beforeAll(async () => {
    const installation = await provision();
    hubId = installation.hubId;
    const actor = { hubId, appId: installation.appId, userId: installation.userId };
    for (let index = 0; index < 40; index += 1) {
      const created = await createRecord(actor, companyObjectType, {
        properties: {
          name: `Paged ${index}`,
          numberofemployees: String((index * 7) % 13),
          city: index % 2 === 0 ? 'Boston' : 'Austin',
        },
      });
      ids.push(created.id);
    }
    await archiveRecord(companyObjectType, hubId, ids[5] ?? '');
  });

  const searches: SearchInput[] = [
    {},
    { limit: 15, after: '10' },
    { sorts: ['-numberofemployees'], properties: ['name', 'city', 'numberofemployees'], limit: 30 },
    {
      filterGroups: [{ filters: [{ propertyName: 'city', operator: 'EQ', value: 'boston' }] }],
      properties: ['city', 'name'],
    },
  ];

  it.each(searches.map((input) => [JSON.stringify(input), input]))(
    'answers %s as whole-page reads do, with every value shown',
    async (_name, input) => {
      const whole = await searchRecords(companyObjectType, hubId, input, undefined, false);
      dynamoCallCounter.reset();
      const paged = await searchRecords(
        companyObjectType,
        hubId,
        input,
        createProjectionSearchIndex({ pageItems: 1 }),
        false,
      );

      expect(paged).toEqual(whole);
      expect(whole.results.length).toBeGreaterThan(0);
      expect(
        whole.results.every(
          (result) => typeof result.properties.name === 'string' && result.properties.name.startsWith('Paged '),
        ),
      ).toBe(true);
      // Later pages came without values: one BatchGetItem read the page's. A page of more companies
      // than there are shards holds some shard's second one for certain; a smaller one may not.
      const batchGets = dynamoCallCounter.callsApartFromRetries().BatchGetItemCommand ?? 0;
      if (whole.results.length > searchShards) expect(batchGets).toBe(1);
      else expect(batchGets).toBeLessThanOrEqual(1);
    },
  );

  it('counts the archived company nowhere', async () => {
    const found = await searchRecords(
      companyObjectType,
      hubId,
      { limit: 100 },
      createProjectionSearchIndex({ pageItems: 1 }),
      false,
    );

    expect(found.total).toBe(39);
    expect(found.results.map((result) => result.id)).toEqual(ids.filter((_, index) => index !== 5));
  });
});
