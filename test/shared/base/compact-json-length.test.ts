import fc from 'fast-check';
import { compactJsonLength } from '../../../shared/base/compact-json-length';

describe('compactJsonLength', () => {
  it('is the length of JSON.stringify for any JSON value under the cap', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(compactJsonLength(value, Number.MAX_SAFE_INTEGER)).toBe(JSON.stringify(value).length);
      }),
      { numRuns: 2000, seed: 17 },
    );
  });

  it('leaves out undefined object values and writes undefined array items as null, as JSON.stringify does', () => {
    const value = { gone: undefined, items: [undefined, 1, -0, 1e21], text: 'é"\n\u2028', nested: {} };

    expect(compactJsonLength(value, Number.MAX_SAFE_INTEGER)).toBe(JSON.stringify(value).length);
  });

  it('answers a number above the cap once the value is longer, and exactly below it', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(300), (value, cap) => {
        const length = JSON.stringify(value).length;
        const counted = compactJsonLength(value, cap);
        if (length <= cap) expect(counted).toBe(length);
        else expect(counted).toBeGreaterThan(cap);
      }),
      { numRuns: 2000, seed: 18 },
    );
  });

  it('counts a value nested 100,000 levels deep without overflowing the stack (JSON.stringify throws)', () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`) as unknown;

    expect(() => JSON.stringify(deep)).toThrow(RangeError);
    expect(compactJsonLength(deep, 3000)).toBeGreaterThan(3000);
  });
});
