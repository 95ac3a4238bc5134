import { isReadOnly, type PropertyRules } from './property-definition';
import { clientKeyedRecord } from '../base/client-keys';
import { propertyValuesError, type InvalidValue } from './property-values-error';

export { propertyValuesError, type InvalidValue } from './property-values-error';

export interface PropertyLookup {
  find(name: string): PropertyRules | undefined;
}

/** HubSpot's string limit for a property value. */
export const maxPropertyValueLength = 65_536;

/**
 * Every pattern here is unambiguous (each character can be matched one way only), so a test
 * costs time linear in the input, and each runs only on input no longer than its own cap: a
 * 64 KiB value must not hold the function (and every other tenant's request on it) for seconds.
 * A number pattern such as `\d+\.?\d*`, whose two digit runs split "123" in n ways, takes 4.6 s to
 * reject 40,000 digits and an "x".
 */
const numberPattern = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const isoDatePattern = /^\d{4}-\d{2}-\d{2}$/;
const isoInstantPattern = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+)?(Z|[+-]\d{2}:?\d{2})?$/;
const epochMsPattern = /^-?\d{1,15}$/;
/** An id of a record of another service (an owner, a team). */
const idPattern = /^\d{1,18}$/;
/** Far longer than any number a double holds in full (about 770 significant digits at most). */
const maxNumberValueLength = 1000;
/** "2024-01-31T23:59:59.999999999+14:00" is 35 characters. */
const maxInstantValueLength = 64;

/**
 * A sent value as a message quotes it, cut short: 100 inputs of 64 KiB must not come back, each
 * twice, in one error body.
 */
export function quoteValue(value: string): string {
  return JSON.stringify(value.length > 100 ? `${value.slice(0, 100)}…` : value);
}

/** A decimal number as text ("12", "-1.5", ".5", "1e3") that a double holds: finite, not too long. */
export function isDecimalNumber(text: string): boolean {
  return text.length <= maxNumberValueLength && numberPattern.test(text) && Number.isFinite(Number(text));
}

function parseInstant(value: string): Date | undefined {
  if (value.length > maxInstantValueLength) return undefined;
  const date = epochMsPattern.test(value)
    ? new Date(Number(value))
    : isoInstantPattern.test(value)
      ? new Date(value)
      : undefined;
  return date && Number.isFinite(date.getTime()) ? date : undefined;
}

/** Returns the stored form of the value, or the error code that rejects it. */
function normalizeValue(
  definition: PropertyRules,
  value: string,
): { value: string } | { error: string; message: string } {
  if (value === '') return { value };
  if (value.length > maxPropertyValueLength) {
    return {
      error: 'INVALID_STRING_LENGTH',
      message: `Property "${definition.name}" is longer than ${maxPropertyValueLength} characters`,
    };
  }
  switch (definition.type) {
    case 'number':
      return isDecimalNumber(value.trim())
        ? { value: value.trim() }
        : {
            error: 'INVALID_LONG',
            message: `${quoteValue(value)} is not a valid number for property "${definition.name}"`,
          };
    case 'bool': {
      const lowered = value.trim().toLowerCase();
      return lowered === 'true' || lowered === 'false'
        ? { value: lowered }
        : {
            error: 'INVALID_BOOLEAN',
            message: `${quoteValue(value)} is not a valid boolean for property "${definition.name}"; use "true" or "false"`,
          };
    }
    case 'datetime': {
      const instant = parseInstant(value.trim());
      return instant
        ? { value: instant.toISOString() }
        : {
            error: 'INVALID_DATE',
            message: `${quoteValue(value)} is not a valid datetime for property "${definition.name}"; use ISO-8601 or epoch milliseconds`,
          };
    }
    case 'date': {
      const trimmed = value.trim();
      const instant =
        trimmed.length > maxInstantValueLength
          ? undefined
          : isoDatePattern.test(trimmed)
            ? parseInstant(`${trimmed}T00:00:00Z`)
            : epochMsPattern.test(trimmed)
              ? parseInstant(trimmed)
              : undefined;
      if (
        !instant ||
        instant.getUTCHours() + instant.getUTCMinutes() + instant.getUTCSeconds() + instant.getUTCMilliseconds() !== 0
      ) {
        return {
          error: 'INVALID_DATE',
          message: `${quoteValue(value)} is not a valid date for property "${definition.name}"; use YYYY-MM-DD or midnight UTC in epoch milliseconds`,
        };
      }
      return { value: instant.toISOString().slice(0, 10) };
    }
    case 'enumeration': {
      // Owner and team ids come from other services: any numeric id is accepted (a checkbox holds
      // several, separated by semicolons; HubSpot writes collaborators as ";12345678;9101112").
      if (definition.referencedObjectType !== undefined || definition.name === 'hubspot_team_id') {
        const trimmed = value.trim();
        const ids = definition.fieldType === 'checkbox' ? trimmed.split(';').filter((id) => id !== '') : [trimmed];
        return ids.length > 0 && ids.every((id) => idPattern.test(id))
          ? { value: trimmed }
          : {
              error: 'INVALID_OPTION',
              message: `${quoteValue(value)} is not a valid id for property "${definition.name}"`,
            };
      }
      // Options kept elsewhere (a pipeline's stages, a contact's further emails): the module that
      // keeps them checks the value by its own rules, so it passes here as sent.
      if (definition.externalOptions) return { value };
      const allowed = new Set(definition.options.map((option) => option.value));
      const chosen = definition.fieldType === 'checkbox' ? value.split(';') : [value];
      const bad = chosen.filter((option) => !allowed.has(option));
      return bad.length === 0
        ? { value }
        : {
            error: 'INVALID_OPTION',
            message: `${quoteValue(bad[0] ?? '')} was not one of the allowed options for property "${definition.name}": [${[...allowed].join(', ')}]`,
          };
    }
    default:
      return { value };
  }
}

/**
 * Checks every value against its definition and returns the stored forms. All problems are
 * reported at once: one error entry per bad property, as HubSpot does.
 */
export function validatePropertyValues(values: Record<string, string>, lookup: PropertyLookup): Record<string, string> {
  const normalized = clientKeyedRecord<string>();
  const invalid: InvalidValue[] = [];
  for (const [name, value] of Object.entries(values)) {
    const definition = lookup.find(name);
    if (!definition) {
      invalid.push({ name, error: 'PROPERTY_DOESNT_EXIST', message: `Property "${name}" does not exist` });
      continue;
    }
    if (isReadOnly(definition)) {
      invalid.push({
        name,
        error: 'READ_ONLY_VALUE',
        message: `Property "${name}" is a read only property; its value cannot be set.`,
      });
      continue;
    }
    const result = normalizeValue(definition, value);
    if ('error' in result) invalid.push({ name, ...result });
    else normalized[name] = result.value;
  }
  if (invalid.length > 0) throw propertyValuesError(invalid);
  return normalized;
}
