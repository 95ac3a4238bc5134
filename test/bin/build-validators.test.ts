import fc from 'fast-check';
import Ajv, { type ValidateFunction } from 'ajv';
import { buildValidators } from '../../bin/build-validators';
import { ajvOptions, readErrorParams, registeredSchemas } from '../../shared/http/validation';
import { routes } from '../../shared/routes';

describe('build-validators', () => {
  it('generates standalone code for every schema of every route, agreeing with ajv on any input', async () => {
    const { file, count } = await buildValidators();
    const generated = require(file) as Record<string, ValidateFunction>;

    expect(count).toBe(registeredSchemas.size);
    expect(count).toBeGreaterThanOrEqual(routes.filter((route) => route.path !== '$default').length / 2);
    for (const [key, entry] of registeredSchemas) {
      const standalone = generated[key];
      expect(standalone).toBeInstanceOf(Function);
      const reference = new Ajv(ajvOptions[entry.flavor]).compile(entry.schema);
      fc.assert(
        fc.property(fc.oneof(fc.jsonValue(), fc.dictionary(fc.string(), fc.string())), (value) => {
          // Coercing validators change their input, so each side gets its own copy.
          expect(standalone?.(structuredClone(value))).toBe(reference(structuredClone(value)));
          // The same errors, less what the generated code leaves out because nothing reads it: the schema
          // paths, and the params but those shared/http/validation.ts reads.
          expect(standalone?.errors ?? null).toEqual(
            reference.errors?.map(({ schemaPath: _, params, ...error }) => ({
              ...error,
              params: Object.fromEntries(
                Object.entries(params).filter(([name]) => (readErrorParams as readonly string[]).includes(name)),
              ),
            })) ?? null,
          );
        }),
        { numRuns: 200 },
      );
    }
  });
});
