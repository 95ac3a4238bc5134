import { normalizeDomain } from '../../../shared/companies/normalize-domain';

describe('normalizeDomain', () => {
  it.each([
    ['Acme.EXAMPLE', 'acme.example'],
    ['https://www.acme.example/about?x=1#top', 'acme.example'],
    ['http://user:pw@acme.example:8080/', 'acme.example'],
    ['//www.acme.example', 'acme.example'],
    ['acme.example.', 'acme.example'],
    ['  sub.acme.example  ', 'sub.acme.example'],
  ])('normalizes %s to %s', (raw, expected) => {
    expect(normalizeDomain(raw)).toBe(expected);
  });

  it.each(['', 'not a domain', 'https://', 'a..b', `${'a'.repeat(254)}.example`])('rejects %j', (raw) => {
    expect(normalizeDomain(raw)).toBeUndefined();
  });
});
