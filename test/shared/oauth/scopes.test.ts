import fc from 'fast-check';
import {
  decodeScopeMask,
  encodeScopeMask,
  maxScopeMaskBytes,
  parseScopeList,
  scopeCatalog,
  scopeMaskCodec,
} from '../../../shared/oauth/scopes';

/** The catalog after `count` more scopes were appended: what a later deployment knows. */
function grownCatalog(count: number): string[] {
  return [...scopeCatalog(), ...Array.from({ length: count }, (_, index) => `future.scope.${index}`)];
}

describe('scope mask', () => {
  it('round-trips every subset of the catalog', () => {
    fc.assert(
      fc.property(fc.subarray([...scopeCatalog()]), (scopes) => {
        expect(decodeScopeMask(encodeScopeMask(scopes))).toEqual(scopes);
      }),
    );
  });

  it('is ceil(catalog / 8) bytes long, the length the previous deployment requires', () => {
    expect(Buffer.from(encodeScopeMask([]), 'base64url')).toHaveLength(Math.ceil(scopeCatalog().length / 8));
    expect(Buffer.from(encodeScopeMask([...scopeCatalog()]), 'base64url')).toHaveLength(
      Math.ceil(scopeCatalog().length / 8),
    );
  });

  it('refuses an empty, a non-canonical and an over-long mask', () => {
    expect(decodeScopeMask('')).toBeUndefined();
    // 'AB' is not what base64url of its own bytes gives ('AA'): a second spelling of the same mask.
    expect(decodeScopeMask('AB')).toBeUndefined();
    expect(decodeScopeMask('A+A')).toBeUndefined();
    expect(decodeScopeMask(Buffer.alloc(maxScopeMaskBytes + 1, 1).toString('base64url'))).toBeUndefined();
    expect(decodeScopeMask('x'.repeat(10_000))).toBeUndefined();
  });

  it('reads a mask minted with the current catalog the same after scopes are appended', () => {
    fc.assert(
      fc.property(fc.subarray([...scopeCatalog()]), fc.integer({ min: 1, max: 40 }), (scopes, appended) => {
        const grown = scopeMaskCodec(grownCatalog(appended));

        expect(grown.decode(encodeScopeMask(scopes))).toEqual(scopes);
      }),
    );
  });

  it('reads a mask minted with a longer catalog as its scopes this catalog knows, ignoring the new ones', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 40 })
          .chain((appended) => fc.subarray(grownCatalog(appended)).map((scopes) => ({ appended, scopes }))),
        ({ appended, scopes }) => {
          const mask = scopeMaskCodec(grownCatalog(appended)).encode(scopes);

          expect(decodeScopeMask(mask)).toEqual(
            scopes.filter((scope) => (scopeCatalog() as readonly string[]).includes(scope)),
          );
        },
      ),
    );
  });

  it('grants a scope appended after the token was minted to no one', () => {
    const appended = grownCatalog(5);
    const grown = scopeMaskCodec(appended);

    const scopes = grown.decode(encodeScopeMask([...scopeCatalog()]));

    expect(scopes).toEqual([...scopeCatalog()]);
    expect(scopes).not.toContain(appended.at(-1));
  });
});

describe('parseScopeList', () => {
  it('splits on spaces, plus signs and commas and drops duplicates', () => {
    expect(parseScopeList('oauth crm.objects.companies.read+timeline,oauth')).toEqual([
      'oauth',
      'crm.objects.companies.read',
      'timeline',
    ]);
  });
});
