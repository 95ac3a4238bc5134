import { ValidationError, type ErrorDetail } from '../base/errors';

/** A property value a write refuses: the property, HubSpot's error code and the message. */
export interface InvalidValue {
  name: string;
  error: string;
  message: string;
}

/** HubSpot's answer to refused property values: 400 VALIDATION_ERROR listing each, with its code, under `errors`. */
export function propertyValuesError(invalid: InvalidValue[]): ValidationError {
  const summary = invalid.map((entry) => ({
    isValid: false,
    message: entry.message,
    error: entry.error,
    name: entry.name,
  }));
  const errors: ErrorDetail[] = invalid.map((entry) => ({
    message: entry.message,
    code: entry.error,
    in: entry.name,
    context: { propertyName: [entry.name] },
  }));
  return new ValidationError(`Property values were not valid: ${JSON.stringify(summary)}`, {
    errors,
    context: { properties: invalid.map((entry) => entry.name) },
  });
}
