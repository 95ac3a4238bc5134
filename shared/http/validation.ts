import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { ValidationError, type ErrorDetail } from './errors';

/** Bodies are validated as sent; query strings and path parameters arrive as strings and are coerced. */
const bodyAjv = new Ajv({ allErrors: true, strict: true, useDefaults: false });
const paramAjv = new Ajv({ allErrors: true, strict: true, coerceTypes: true, useDefaults: true });

export type Location = 'body' | 'query' | 'path';

export interface Validator {
  (value: unknown): void;
}

function describe(error: ErrorObject, location: Location): ErrorDetail {
  const missing = error.keyword === 'required' ? String(error.params.missingProperty) : undefined;
  const extra = error.keyword === 'additionalProperties' ? String(error.params.additionalProperty) : undefined;
  const pointer = error.instancePath.replace(/^\//, '').replaceAll('/', '.');
  const field = [pointer, missing ?? extra].filter((part) => part !== undefined && part !== '').join('.');
  const name = field === '' ? location : `${location}.${field}`;
  const message = extra !== undefined ? `${name} is not an allowed field` : `${name} ${error.message ?? 'is invalid'}`;
  return { message, code: error.keyword.toUpperCase(), in: name, context: { field: [name] } };
}

/** Compiles once at module load; the returned function throws a ValidationError naming every bad field. */
export function compileValidator(schema: object, location: Location): Validator {
  const validate: ValidateFunction = (location === 'body' ? bodyAjv : paramAjv).compile(schema);
  return (value: unknown) => {
    if (validate(value)) return;
    const errors = (validate.errors ?? []).map((error) => describe(error, location));
    const fields = [...new Set(errors.map((error) => error.in ?? location))];
    throw new ValidationError(errors.map((error) => error.message).join('; ') || `invalid ${location}`, {
      errors,
      context: { field: fields },
    });
  };
}
