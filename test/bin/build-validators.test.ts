import fc from 'fast-check';
import Ajv, { type ValidateFunction } from 'ajv';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Script } from 'node:vm';
import { buildValidators, generatedDir } from '../../bin/build-validators';
import { routeValidatorsFileName } from '../../lib/bundling';
import { ajvOptions, readErrorParams, registeredSchemas } from '../../shared/http/validation';
import { routes } from '../../shared/routes';

describe('build-validators', () => {
  it('generates standalone code for every schema of every route, agreeing with ajv on any input', async () => {
    const { file, count } = await buildValidators();
    const generated = require(file) as Record<string, ValidateFunction>;

    expect(count).toBe(registeredSchemas.size);
    // Each route's own modules (what its bundle carries) are valid JavaScript as Node parses it: they are
    // post-processed apart, and the tests' transform (TypeScript's, which emits through syntax errors) would not tell.
    for (const route of routes.filter((entry) => entry.path !== '$default')) {
      const base = path.join(generatedDir, routeValidatorsFileName(route.name)).replace(/\.js$/, '');
      for (const file of [`${base}.js`, `${base}-body.js`, `${base}-param.js`].filter((name) => existsSync(name)))
        expect(() => new Script(readFileSync(file, 'utf8'), { filename: file })).not.toThrow();
    }
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
