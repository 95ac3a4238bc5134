import { ForbiddenError, NotFoundError, ValidationError } from '../../../shared/base/errors';
import {
  parseNumericId,
  parsePathId,
  requireOwnApp,
  requireWellFormedJson,
} from '../../../shared/timeline/timeline-access';

describe('requireOwnApp', () => {
  it('accepts a token of the application in the path', () => {
    expect(() => requireOwnApp({ appId: 7 }, 7)).not.toThrow();
  });

  it('throws ForbiddenError for a token of another application', () => {
    expect(() => requireOwnApp({ appId: 7 }, 8)).toThrow(ForbiddenError);
  });
});

describe('parsePathId', () => {
  it('reads a string of digits', () => {
    expect(parsePathId('1001', 'eventTypeId')).toBe(1001);
  });

  it('reads a 16-digit company-sized id exactly', () => {
    expect(parsePathId('1001795298369500', 'objectId')).toBe(1001795298369500);
  });

  it.each(['abc', '1.5', '-1', '', '9999999999999999', '12345678901234567', ' 1'])(
    'answers %j like a missing object',
    (raw) => {
      expect(() => parsePathId(raw, 'eventTypeId')).toThrow(NotFoundError);
    },
  );
});

describe('parseNumericId', () => {
  it.each([
    [5, 5],
    ['5', 5],
    [0, undefined],
    ['0', undefined],
    [1.5, undefined],
    ['x', undefined],
    [null, undefined],
    [2 ** 60, undefined],
    ['1001795298369500', 1001795298369500],
  ])('reads %j as %j', (value, expected) => {
    expect(parseNumericId(value)).toBe(expected);
  });
});

describe('requireWellFormedJson', () => {
  it('accepts proper surrogate pairs (emoji)', () => {
    expect(() => requireWellFormedJson({ a: ['😀'] })).not.toThrow();
  });

  it('names the field holding a lone surrogate', () => {
    let caught: unknown;
    try {
      requireWellFormedJson({ list: ['ok', { deep: 'x\ud800' }] }, 'eventWrappers[0]');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ValidationError);
    expect((caught as ValidationError).context).toEqual({ field: ['eventWrappers[0].list[1].deep'] });
  });

  it('refuses a lone surrogate in a key', () => {
    expect(() => requireWellFormedJson({ 'k\udc00': 1 })).toThrow(ValidationError);
  });

  it('refuses nesting deeper than 64 levels and accepts 64', () => {
    const nest = (depth: number): unknown => (depth === 0 ? 'leaf' : [nest(depth - 1)]);
    expect(() => requireWellFormedJson(nest(64))).not.toThrow();
    expect(() => requireWellFormedJson(nest(65))).toThrow(ValidationError);
  });
});
