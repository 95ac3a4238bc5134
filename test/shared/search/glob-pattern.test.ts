import fc from 'fast-check';
import { compileGlob, LiteralSearch } from '../../../shared/search/glob-pattern';

/** The meaning of a glob, spelled as a regular expression: `*` is any run of characters, the rest literal. */
const globRegex = (pattern: string): RegExp =>
  new RegExp(
    `^${pattern
      .split('*')
      .map((piece) => piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
    's',
  );

describe('compileGlob', () => {
  it('matches exactly what the regular expression of the glob matches (small alphabets, so pieces overlap and repeat)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', 'b'), maxLength: 12 }),
        fc.string({ unit: fc.constantFrom('a', 'b', '*'), maxLength: 8 }),
        (text, pattern) => {
          expect(compileGlob(pattern).matches(text)).toBe(globRegex(pattern).test(text));
        },
      ),
      { numRuns: 20_000, seed: 17 },
    );
  });

  it('matches unicode text, surrogate pairs included, unit by unit', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('é', '😀', 'a', ' ', '\ud800'), maxLength: 10 }),
        fc.string({ unit: fc.constantFrom('é', '😀', '*', '\ud83d'), maxLength: 6 }),
        (text, pattern) => {
          expect(compileGlob(pattern).matches(text)).toBe(globRegex(pattern).test(text));
        },
      ),
      { numRuns: 5_000, seed: 18 },
    );
  });

  it('knows the shortest text that can match and the longest literal every match holds', () => {
    const glob = compileGlob('ab*cde**f');

    expect([glob.minLength, glob.longest.literal]).toEqual([6, 'cde']);
    expect(compileGlob('plain').longest.literal).toBe('plain');
  });
});

describe('LiteralSearch', () => {
  it('finds the first occurrence within [from, end), as indexOf does', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', 'b', 'c'), maxLength: 30 }),
        fc.string({ unit: fc.constantFrom('a', 'b', 'c'), maxLength: 5 }),
        fc.nat(30),
        fc.nat(30),
        (text, literal, from, end) => {
          const window = Math.min(end, text.length);
          const expected = text.indexOf(literal, from);
          const isInside = expected >= 0 && expected + literal.length <= window;
          expect(new LiteralSearch(literal).indexIn(text, from, window)).toBe(
            literal === '' ? (from <= window ? from : -1) : isInside ? expected : -1,
          );
        },
      ),
      { numRuns: 20_000, seed: 19 },
    );
  });
});
