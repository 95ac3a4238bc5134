import { findStandardCompanyProperty } from '../../support/company-catalog';
import { validatePropertyValues } from '../../../shared/properties/validate-property-values';
import { ValidationError } from '../../../shared/base/errors';

const standard = { find: findStandardCompanyProperty };

function errorOf(values: Record<string, string>): ValidationError {
  try {
    validatePropertyValues(values, standard);
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
  throw new Error('expected a validation error');
}

describe('validatePropertyValues', () => {
  it('returns one error entry per bad property', () => {
    const error = errorOf({
      nope: 'x',
      hs_object_id: '1',
      industry: 'NOT_AN_INDUSTRY',
      numberofemployees: 'many',
      name: 'fine',
    });

    expect(error.errors?.map((entry) => [entry.context?.propertyName?.[0], entry.code])).toEqual([
      ['nope', 'PROPERTY_DOESNT_EXIST'],
      ['hs_object_id', 'READ_ONLY_VALUE'],
      ['industry', 'INVALID_OPTION'],
      ['numberofemployees', 'INVALID_LONG'],
    ]);
    expect(error.message).toMatch(/^Property values were not valid: \[/);
  });

  it('normalizes datetimes given as epoch milliseconds to ISO-8601', () => {
    expect(validatePropertyValues({ closedate: '1714658591512' }, standard)).toEqual({
      closedate: '2024-05-02T14:03:11.512Z',
    });
  });

  it('accepts an empty string for any property as a clear', () => {
    expect(validatePropertyValues({ industry: '', numberofemployees: '' }, standard)).toEqual({
      industry: '',
      numberofemployees: '',
    });
  });

  it('rejects a boolean that is not true or false', () => {
    expect(errorOf({ is_public: 'yes' }).errors?.[0]?.code).toBe('INVALID_BOOLEAN');
  });
});
