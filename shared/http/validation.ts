import { createHash } from 'node:crypto';
import Ajv, { type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import { ValidationError, type ErrorDetail } from '../base/errors';

/**
 * Compiling JSON schemas with ajv at cold start costs more than importing the whole AWS SDK. A
 * deployed bundle validates with the code bin/build-validators.ts generates ahead of time (ajv
 * standalone code) for its own route's schemas, which its route parts hand it
 * (precompiledValidator), and holds no ajv. Run from source (tests, npm start, the build step),
 * the schemas are compiled with ajv when the handler loads (compileValidator).
 */

export type Location = 'body' | 'query' | 'path';
export type AjvFlavor = 'body' | 'param';

/** Bodies are validated as sent; query strings and path parameters arrive as strings and are coerced. */
export const ajvOptions: Record<AjvFlavor, Options> = {
  body: { allErrors: true, strict: true, allowUnionTypes: true, useDefaults: false },
  param: { allErrors: true, strict: true, coerceTypes: true, useDefaults: true },
};

export const flavorOf = (location: Location): AjvFlavor => (location === 'body' ? 'body' : 'param');

/** Every schema a loaded handler uses, by key, with the routes using it; the build step generates code for these. */
export const registeredSchemas = new Map<string, { schema: object; flavor: AjvFlavor; routeNames: Set<string> }>();

export function schemaKey(schema: object, location: Location): string {
  const flavor = flavorOf(location);
  return `${flavor}_${createHash('sha256').update(JSON.stringify(schema)).digest('hex').slice(0, 20)}`;
}

const ajvInstances = new Map<AjvFlavor, Ajv>();

export type Validator = (value: unknown) => void;

/**
 * A body of many unknown keys would otherwise come back several times over in the error (an 8 MB
 * body made a 43 MB answer), past Lambda's 6 MB response limit: a 5xx at API Gateway.
 */
const maxReportedErrors = 50;
const maxFieldNameLength = 200;

/** The params of an error that describe() reads: the generated validators keep only these (bin/build-validators.ts). */
export const readErrorParams = ['missingProperty', 'additionalProperty'] as const;

function describe(error: ErrorObject, location: Location): ErrorDetail {
  const missing = error.keyword === 'required' ? String(error.params.missingProperty) : undefined;
  const extra = error.keyword === 'additionalProperties' ? String(error.params.additionalProperty) : undefined;
  const pointer = error.instancePath.replace(/^\//, '').replaceAll('/', '.');
  const field = [pointer, missing ?? extra].filter((part) => part !== undefined && part !== '').join('.');
  const fullName = field === '' ? location : `${location}.${field}`;
  const name = fullName.length > maxFieldNameLength ? `${fullName.slice(0, maxFieldNameLength)}…` : fullName;
  const message = extra !== undefined ? `${name} is not an allowed field` : `${name} ${error.message ?? 'is invalid'}`;
  return { message, code: error.keyword.toUpperCase(), in: name, context: { field: [name] } };
}

/**
 * Ajv coerces a query or path value such as "1e309" to Infinity and then passes it as an integer
 * within any maximum (its coercion skips the finite check its number type makes on a body, where
 * JSON.parse's Infinity is refused as "must be number"). No number of a query or a path is infinite:
 * the fields holding one, by path, at most `max` of them. An explicit stack, linear in the value's size.
 */
function nonFiniteFields(value: unknown, max: number): string[] {
  const found: string[] = [];
  const pending: { value: unknown; path: string }[] = [{ value, path: '' }];
  while (pending.length > 0 && found.length < max) {
    const next = pending.pop() as { value: unknown; path: string };
    if (typeof next.value === 'number') {
      if (!Number.isFinite(next.value)) found.push(next.path);
    } else if (typeof next.value === 'object' && next.value !== null) {
      for (const [key, child] of Object.entries(next.value)) {
        pending.push({ value: child, path: next.path === '' ? key : `${next.path}.${key}` });
      }
    }
  }
  return found;
}

/** Compiles the schema with ajv and registers it for the build step; the validator throws a ValidationError naming every bad field. */
export function compileValidator(schema: object, location: Location, routeName?: string): Validator {
  const key = schemaKey(schema, location);
  const flavor = flavorOf(location);
  const registered = registeredSchemas.get(key) ?? { schema, flavor, routeNames: new Set<string>() };
  if (routeName !== undefined) registered.routeNames.add(routeName);
  registeredSchemas.set(key, registered);
  let ajv = ajvInstances.get(flavor);
  if (!ajv) {
    ajv = new Ajv(ajvOptions[flavor]);
    ajvInstances.set(flavor, ajv);
  }
  return validatorOf(ajv.compile(schema), location);
}

/** The same from the code bin/build-validators.ts generated for a bundle's route, found by the schema's key. */
export function precompiledValidator(
  validators: Record<string, ValidateFunction | undefined>,
  schema: object,
  location: Location,
): Validator {
  const key = schemaKey(schema, location);
  const validate = validators[key];
  if (!validate) throw new Error(`no precompiled validator ${key}: run bin/build-validators.ts before bundling`);
  return validatorOf(validate, location);
}

function validatorOf(validate: ValidateFunction, location: Location): Validator {
  const flavor = flavorOf(location);
  return (value: unknown) => {
    if (validate(value)) {
      const infinite = (flavor === 'param' ? nonFiniteFields(value, maxReportedErrors) : []).map((field) =>
        describe(
          {
            instancePath: field === '' ? '' : `/${field.replaceAll('.', '/')}`,
            keyword: 'maximum',
            params: {},
            schemaPath: '',
            message: 'must be a finite number',
          } as ErrorObject,
          location,
        ),
      );
      if (infinite.length === 0) return;
      throw new ValidationError(infinite.map((error) => error.message).join('; '), {
        errors: infinite,
        context: { field: infinite.map((error) => error.in ?? location) },
      });
    }
    const errors = (validate.errors ?? []).slice(0, maxReportedErrors).map((error) => describe(error, location));
    const fields = [...new Set(errors.map((error) => error.in ?? location))];
    throw new ValidationError(errors.map((error) => error.message).join('; ') || `invalid ${location}`, {
      errors,
      context: { field: fields },
    });
  };
}
