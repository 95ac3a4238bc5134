import fc from 'fast-check';
import { TermSet } from '../../../shared/search/term-set';

describe('TermSet', () => {
  it('says whether every term occurs in one of the texts, as includes() per term does, check after check', () => {
    const unit = fc.constantFrom('a', 'b', 'c');
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit, minLength: 1, maxLength: 4 }), { maxLength: 6 }),
        fc.array(fc.array(fc.option(fc.string({ unit, maxLength: 14 }), { nil: undefined }), { maxLength: 4 }), {
          minLength: 1,
          maxLength: 4,
        }),
        (terms, checks) => {
          const set = new TermSet(terms);
          // One set serves many records: each check must forget what the previous one found.
          for (const texts of checks) {
            expect(set.allOccurIn(texts)).toBe(terms.every((term) => texts.some((text) => text?.includes(term))));
          }
        },
      ),
      { numRuns: 10_000, seed: 20 },
    );
  });

  it('ignores empty and repeated terms', () => {
    expect(new TermSet(['acme', '', 'acme', 'inc']).size).toBe(2);
    expect(new TermSet([]).allOccurIn([undefined])).toBe(true);
  });
});
