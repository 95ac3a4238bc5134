import { companyKeys } from '../../../shared/companies/company-keys';
import { requireObjectType } from '../../../shared/objects/object-types';

describe('companyKeys', () => {
  it("states the companies' key layout as their registry entry does", () => {
    const companies = requireObjectType('companies');

    expect(companyKeys).toEqual({
      id: companies.id,
      name: companies.name,
      keyPrefix: companies.keyPrefix,
      searchTag: companies.searchTag,
    });
  });
});
