import { companyObjectType } from '../../../shared/objects/object-types';
import { findStandardCompanyProperty } from '../../support/company-catalog';
import { projectionQueryOf } from '../../../shared/search/projection-query';
import { compileSearch } from '../../../shared/search/search-request';

const lookup = { find: findStandardCompanyProperty };

function pushedFilterOf(
  operator: 'NOT_CONTAINS_TOKEN' | 'CONTAINS_TOKEN',
  value: string,
  propertyName = 'name',
): { expression?: string; values: unknown[] } {
  const query = projectionQueryOf(
    compileSearch({ filterGroups: [{ filters: [{ propertyName, operator, value }] }] }, lookup, companyObjectType),
  );
  return { expression: query.filterExpression, values: Object.values(query.values) };
}

describe('what NOT_CONTAINS_TOKEN pushes to DynamoDB', () => {
  // Not pushed down, NOT_CONTAINS_TOKEN would bring every record back to be matched in memory.
  it.each([
    [
      'a whole value',
      'Acme Labs',
      'NOT (#l.#p0 = :x0 OR (attribute_not_exists(#l.#p0) AND #v.#p0 = :x1))',
      ['acme labs', 'acme labs'],
    ],
    [
      'a prefix',
      'acme*',
      'NOT (begins_with(#l.#p0, :x0) OR (attribute_not_exists(#l.#p0) AND begins_with(#v.#p0, :x1)))',
      ['acme', 'acme'],
    ],
    [
      'an infix',
      '**widget*',
      'NOT (contains(#l.#p0, :x0) OR (attribute_not_exists(#l.#p0) AND contains(#v.#p0, :x1)))',
      ['widget', 'widget'],
    ],
    ['stars alone (any value has a token)', '**', 'attribute_not_exists(#v.#p0)', []],
  ])('leaves out records whose whole value matches %s', (_shape, pattern, expression, values) => {
    expect(pushedFilterOf('NOT_CONTAINS_TOKEN', pattern)).toEqual({ expression, values });
  });

  it('compares an enumeration exactly (its v form)', () => {
    expect(pushedFilterOf('NOT_CONTAINS_TOKEN', 'BANKING', 'industry')).toEqual({
      expression: 'NOT (#v.#p0 = :x0)',
      values: ['BANKING'],
    });
  });

  it.each([
    ['a suffix', '*labs'],
    ['two literals', 'a*b'],
    ['an empty pattern', ''],
  ])('pushes nothing for %s, which DynamoDB cannot decide', (_shape, pattern) => {
    expect(pushedFilterOf('NOT_CONTAINS_TOKEN', pattern).expression).toBeUndefined();
  });

  it('still pushes CONTAINS_TOKEN as a contains on its longest literal', () => {
    expect(pushedFilterOf('CONTAINS_TOKEN', '*a*widget*').values).toEqual(['widget', 'widget']);
  });

  it('pushes no contains longer than 64 characters, whose cost in DynamoDB grows with value length x literal length', () => {
    const long = `${'a'.repeat(150)}b`;
    const query = projectionQueryOf(compileSearch({ query: long }, lookup, companyObjectType));

    expect(pushedFilterOf('CONTAINS_TOKEN', `*${long}`).values).toEqual(['a'.repeat(64), 'a'.repeat(64)]);
    expect(Object.values(query.values)).toEqual(['a'.repeat(64)]);
    expect(pushedFilterOf('NOT_CONTAINS_TOKEN', `*${long}*`).expression).toBeUndefined();
    expect(pushedFilterOf('NOT_CONTAINS_TOKEN', `${long}*`).values).toEqual([long, long]);
  });
});
