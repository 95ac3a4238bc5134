import { companyObjectType } from '../../../shared/objects/object-types';
import fc from 'fast-check';
import { searchFormsOf, type SearchForms } from '../../../shared/records/search-forms';
import { findStandardCompanyProperty } from '../../support/company-catalog';
import { SearchPageCollector } from '../../../shared/search/search-records';
import { compileSearch, type SearchInput } from '../../../shared/search/search-request';

/**
 * The collector keeps only the first offset + limit matches while the projection streams in page
 * by page (a heap of that many, the last in order on top). Against sorting every match at once: the same
 * page in the same order and the same total, for any page size, chunking and cut point.
 */
const lookup = { find: findStandardCompanyProperty };

function formsOf(count: number, employeesRange: number): SearchForms[] {
  return Array.from({ length: count }, (_, index) => {
    const createdAt = new Date(Date.UTC(2025, 0, 1) + Math.floor(index / 3) * 1000).toISOString();
    return searchFormsOf(companyObjectType, {
      id: String(1_900_000_000_000_000 + ((index * 7919) % count)),
      properties: { name: `Company ${index}`, numberofemployees: String((index * 31) % employeesRange) },
      createdAt,
      updatedAt: createdAt,
    });
  });
}

describe('SearchPageCollector', () => {
  it('keeps exactly the page and the total of sorting every match at once, whatever the chunks', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 3000 }),
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 0, max: 2999 }),
        fc.integer({ min: 1, max: 200 }),
        fc.constantFrom<SearchInput['sorts']>(
          undefined,
          ['numberofemployees'],
          ['-numberofemployees'],
          ['-createdate'],
        ),
        fc.boolean(),
        fc.integer({ min: 1, max: 700 }),
        async (count, employeesRange, offset, limit, sorts, isFiltered, chunk) => {
          const input: SearchInput = {
            ...(isFiltered
              ? {
                  filterGroups: [
                    {
                      filters: [
                        {
                          propertyName: 'numberofemployees',
                          operator: 'LT',
                          value: String(Math.ceil(employeesRange / 2)),
                        },
                      ],
                    },
                  ],
                }
              : {}),
            ...(sorts ? { sorts } : {}),
            limit,
            after: String(offset),
          };
          const search = compileSearch(input, lookup, companyObjectType);
          const forms = formsOf(count, employeesRange);
          const collector = new SearchPageCollector(search);
          for (let start = 0; start < forms.length; start += chunk)
            await collector.add(forms.slice(start, start + chunk));
          const got = await collector.page();

          // The model: every match, one sort by (value, then id) written out here, one slice.
          const threshold = Math.ceil(employeesRange / 2);
          const sortName = search.sort.propertyName;
          const sign = search.sort.isDescending ? -1 : 1;
          const sortValueOf = (form: SearchForms) =>
            sortName === 'numberofemployees' ? Number(form.v.numberofemployees) : Date.parse(form.v.createdate ?? '');
          const matches = forms
            .filter((form) => !isFiltered || Number(form.v.numberofemployees) < threshold)
            .sort((a, b) => sign * (sortValueOf(a) - sortValueOf(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)));
          expect({ total: got.total, ids: got.page.map((form) => form.id) }).toEqual({
            total: matches.length,
            ids: matches.slice(offset, offset + limit).map((form) => form.id),
          });
        },
      ),
      { numRuns: 60, seed: 12 },
    );
  });
});
