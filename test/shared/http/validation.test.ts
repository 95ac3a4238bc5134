import { ValidationError } from '../../../shared/base/errors';
import { compileValidator } from '../../../shared/http/validation';

const pageQuery = { type: 'object', properties: { limit: { type: 'integer', minimum: 1, maximum: 500 } } } as const;

describe('query and path validation', () => {
  it('refuses a number that coerces to Infinity (limit=1e309), which ajv passes as an integer within any maximum', () => {
    const validate = compileValidator(pageQuery, 'query');
    let thrown: unknown;
    try {
      validate({ limit: '1e309' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ValidationError);
    expect((thrown as ValidationError).context).toEqual({ field: ['query.limit'] });
    expect((thrown as ValidationError).message).toBe('query.limit must be a finite number');
  });

  it('still coerces and accepts a finite number, and refuses one over the maximum as before', () => {
    const validate = compileValidator(pageQuery, 'query');
    const query: Record<string, unknown> = { limit: '250' };
    validate(query);
    expect(query.limit).toBe(250);
    expect(() => validate({ limit: '1e3' })).toThrow('query.limit must be <= 500');
  });
});

describe('body validation', () => {
  it('refuses 1e309 in a body (JSON.parse reads it as Infinity) by the number type, without coercion', () => {
    const validate = compileValidator(
      {
        type: 'object',
        properties: {
          stages: { type: 'array', items: { type: 'object', properties: { displayOrder: { type: 'number' } } } },
        },
      },
      'body',
    );
    const body = JSON.parse('{"stages":[{"displayOrder":1},{"displayOrder":1e309}]}') as unknown;
    expect(() => validate(body)).toThrow('body.stages.1.displayOrder must be number');
    expect(() => validate({ stages: [{ displayOrder: 3 }] })).not.toThrow();
  });
});
