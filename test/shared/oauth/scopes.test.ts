import fc from 'fast-check';
import { decodeScopeMask, encodeScopeMask, parseScopeList, scopeCatalog } from '../../../shared/oauth/scopes';

describe('scope mask', () => {
  it('round-trips every subset of the catalog', () => {
    fc.assert(fc.property(fc.subarray([...scopeCatalog]), (scopes) => {
      expect(decodeScopeMask(encodeScopeMask(scopes))).toEqual(scopes);
    }));
  });

  it('rejects a mask of the wrong length', () => {
    expect(decodeScopeMask('AAAAAAAA')).toBeUndefined();
  });
});

describe('parseScopeList', () => {
  it('splits on spaces, plus signs and commas and drops duplicates', () => {
    expect(parseScopeList('oauth crm.objects.companies.read+timeline,oauth')).toEqual(['oauth', 'crm.objects.companies.read', 'timeline']);
  });
});
