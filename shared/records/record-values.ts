import type { ObjectType } from '../objects/object-types';
import { rulesOf } from './type-rules-lookup';
import type { CrmRecord, HistoryEntry, UniqueValue } from '../db/records';
import { ValidationError } from '../base/errors';
import type { PropertySchema } from '../properties/type-properties';
import { propertyValuesError, quoteValue, validatePropertyValues } from '../properties/validate-property-values';
import { clientKeyedRecordOf, ownValue } from '../base/client-keys';

/** Who writes: the hub scopes the data, the app is the history's source. */
export interface Actor {
  hubId: number;
  appId: number;
  userId: number;
}

/** Clients send strings; loose ones send numbers, booleans or null (null clears, like ""). */
export type RawProperties = Record<string, string | number | boolean | null>;

export function toStringValues(raw: RawProperties): Record<string, string> {
  return clientKeyedRecordOf(Object.entries(raw).map(([name, value]) => [name, value === null ? '' : String(value)]));
}

/** Unique values become part of a sort key (at most 1024 bytes). */
export const maxUniqueValueBytes = 800;
const maxHistoryPerProperty = 20;
/** DynamoDB's item limit is 400 KB; keep room for keys and attribute names. */
const maxItemBytes = 380_000;

/** The type's unique standard property (companies `domain`, contacts `email`), if it has one. */
export const uniquePropertyOf = (type: ObjectType): string | undefined => type.uniqueProperties[0];

/**
 * Validates values against their definitions, then the type's rules on top: values of its unique
 * property and of the list that shares its namespace are normalized (domains: case, scheme, www.,
 * path; emails: case) and must be valid; unique values must fit a key. Every bad property is
 * reported in one error.
 */
export function normalizeValues(type: ObjectType, raw: RawProperties, schema: PropertySchema): Record<string, string> {
  const values = validatePropertyValues(toStringValues(raw), schema);
  const invalid: { name: string; error: string; message: string }[] = [];
  const rules = rulesOf(type);
  const unique = uniquePropertyOf(type);
  const normalize = rules.normalizeUniqueValue;
  if (unique !== undefined && normalize && values[unique] !== undefined && values[unique] !== '') {
    const raw = values[unique];
    const value = normalize(raw);
    if (value) values[unique] = value;
    else
      invalid.push({
        name: unique,
        error: rules.invalidUniqueValue?.error ?? 'INVALID_OPTION',
        message: rules.invalidUniqueValue?.message(quoteValue(raw)) ?? `${quoteValue(raw)} is not valid`,
      });
  }
  const additional = type.additionalUniqueProperty;
  if (additional !== undefined && normalize && values[additional] !== undefined && values[additional] !== '') {
    const parts = values[additional]
      .split(';')
      .map((part) => part.trim())
      .filter((part) => part !== '');
    const normalized = parts.map(normalize);
    const name = rules.additionalName ?? 'additional value';
    const max = rules.maxAdditionalValues ?? 20;
    if (normalized.some((value) => value === undefined)) {
      invalid.push({
        name: additional,
        error: rules.invalidUniqueValue?.error ?? 'INVALID_OPTION',
        message: `Every ${name} must be a valid ${name.replace(/^additional /, '')}`,
      });
    } else if (new Set(normalized).size > max) {
      invalid.push({
        name: additional,
        error: rules.invalidUniqueValue?.error ?? 'INVALID_OPTION',
        message: `At most ${max} ${name}s are allowed`,
      });
    } else {
      values[additional] = [...new Set(normalized)].join(';');
    }
  }
  for (const definition of schema.uniqueProperties()) {
    const value = values[definition.name];
    if (value !== undefined && Buffer.byteLength(value) > maxUniqueValueBytes) {
      invalid.push({
        name: definition.name,
        error: 'INVALID_STRING_LENGTH',
        message: `A unique value may have at most ${maxUniqueValueBytes} bytes`,
      });
    }
  }
  if (invalid.length > 0) throw propertyValuesError(invalid);
  return values;
}

/** The unique values a record of the type with these properties holds (among the given names). */
export function uniqueValuesOf(
  type: ObjectType,
  properties: Record<string, string>,
  schema: PropertySchema,
  names: Iterable<string>,
): UniqueValue[] {
  const unique = new Map<string, UniqueValue>();
  const add = (propertyName: string, value: string) => unique.set(`${propertyName}#${value}`, { propertyName, value });
  const standard = uniquePropertyOf(type);
  for (const name of names) {
    const value = ownValue(properties, name);
    if (value === undefined || value === '') continue;
    if (standard !== undefined && name === standard) add(standard, value);
    else if (standard !== undefined && name === type.additionalUniqueProperty) {
      for (const part of value.split(';')) add(standard, part);
    } else if (schema.find(name)?.hasUniqueValue) add(name, value);
  }
  return [...unique.values()];
}

/** Property names whose values decide the unique values of the given property's namespace. */
export function uniqueSourceNames(type: ObjectType, name: string, schema: PropertySchema): string[] {
  const standard = uniquePropertyOf(type);
  if (standard !== undefined && (name === standard || name === type.additionalUniqueProperty))
    return type.additionalUniqueProperty ? [standard, type.additionalUniqueProperty] : [standard];
  return schema.find(name)?.hasUniqueValue ? [name] : [];
}

/** The namespace a source name's unique values are in (additional values share the unique property's). */
export function uniqueNamespaceOf(type: ObjectType, name: string): string {
  return name === type.additionalUniqueProperty ? (uniquePropertyOf(type) ?? name) : name;
}

/**
 * The type's rules for what a record must hold after a write: its required properties (a create
 * must set them, an update may not clear them) and its own rule (companies: name or domain).
 */
export function requireRecordProperties(type: ObjectType, properties: Record<string, string>): void {
  const missing = type.requiredProperties.filter((name) => !ownValue(properties, name));
  if (missing.length > 0) {
    throw new ValidationError(
      `A ${type.singular} needs the ${missing.length === 1 ? 'property' : 'properties'} ${missing.join(', ')}`,
      {
        context: { properties: missing },
        errors: missing.map((name) => ({
          message: `${name} is required`,
          code: 'REQUIRED_PROPERTY',
          context: { propertyName: [name] },
        })),
      },
    );
  }
  rulesOf(type).requireOnWrite?.(properties);
}

export function historyEntry(value: string, timestamp: string, actor: Actor): HistoryEntry {
  return { value, timestamp, sourceType: 'INTEGRATION', sourceId: String(actor.appId) };
}

export function appendHistory(history: HistoryEntry[] | undefined, entry: HistoryEntry): HistoryEntry[] {
  return [entry, ...(history ?? [])].slice(0, maxHistoryPerProperty);
}

/** Keeps the item under DynamoDB's size limit: history is shortened before the write is refused. */
export function fitItemSize(record: CrmRecord): CrmRecord {
  if (Buffer.byteLength(JSON.stringify(record)) <= maxItemBytes) return record;
  const trimmed = {
    ...record,
    history: clientKeyedRecordOf(Object.entries(record.history).map(([name, entries]) => [name, entries.slice(0, 1)])),
  };
  if (Buffer.byteLength(JSON.stringify(trimmed)) <= maxItemBytes) return trimmed;
  throw new ValidationError('The record would exceed the maximum record size; shorten its property values', {
    context: { properties: Object.keys(record.properties) },
  });
}
