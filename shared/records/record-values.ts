import { companyObjectType } from '../objects/object-types';
import type { CompanyRecord, HistoryEntry, UniqueValue } from '../db/records';
import { ValidationError } from '../base/errors';
import type { CompanyPropertySchema } from '../properties/type-properties';
import { propertyValuesError, quoteValue, validatePropertyValues } from '../properties/validate-property-values';
import { normalizeDomain } from '../companies/normalize-domain';
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

const maxAdditionalDomains = 20;
/** Unique values become part of a sort key (at most 1024 bytes). */
export const maxUniqueValueBytes = 800;
const maxHistoryPerProperty = 20;
/** DynamoDB's item limit is 400 KB; keep room for keys and attribute names. */
const maxItemBytes = 380_000;
export const uniqueDomainProperty = companyObjectType.uniqueProperties[0];

/**
 * Validates values against their definitions, then the company rules on top: domains are
 * normalized (case, scheme, www., path) and must look like host names; unique values must fit
 * a key. Every bad property is reported in one error.
 */
export function normalizeCompanyValues(raw: RawProperties, schema: CompanyPropertySchema): Record<string, string> {
  const values = validatePropertyValues(toStringValues(raw), schema);
  const invalid: { name: string; error: string; message: string }[] = [];
  if (values.domain !== undefined && values.domain !== '') {
    const domain = normalizeDomain(values.domain);
    if (domain) values.domain = domain;
    else
      invalid.push({
        name: 'domain',
        error: 'INVALID_DOMAIN',
        message: `${quoteValue(values.domain)} is not a valid domain`,
      });
  }
  if (values.hs_additional_domains !== undefined && values.hs_additional_domains !== '') {
    const parts = values.hs_additional_domains
      .split(';')
      .map((part) => part.trim())
      .filter((part) => part !== '');
    const domains = parts.map(normalizeDomain);
    if (domains.some((domain) => domain === undefined)) {
      invalid.push({
        name: 'hs_additional_domains',
        error: 'INVALID_DOMAIN',
        message: 'Every additional domain must be a valid domain',
      });
    } else if (new Set(domains).size > maxAdditionalDomains) {
      invalid.push({
        name: 'hs_additional_domains',
        error: 'INVALID_DOMAIN',
        message: `At most ${maxAdditionalDomains} additional domains are allowed`,
      });
    } else {
      values.hs_additional_domains = [...new Set(domains)].join(';');
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

/** The unique values a company with these properties holds. */
export function uniqueValuesOf(
  properties: Record<string, string>,
  schema: CompanyPropertySchema,
  names: Iterable<string>,
): UniqueValue[] {
  const unique = new Map<string, UniqueValue>();
  const add = (propertyName: string, value: string) => unique.set(`${propertyName}#${value}`, { propertyName, value });
  for (const name of names) {
    const value = ownValue(properties, name);
    if (value === undefined || value === '') continue;
    if (name === 'domain') add(uniqueDomainProperty, value);
    else if (name === 'hs_additional_domains') {
      for (const domain of value.split(';')) add(uniqueDomainProperty, domain);
    } else if (schema.find(name)?.hasUniqueValue) add(name, value);
  }
  return [...unique.values()];
}

/** Property names whose values decide the unique values of the given property's namespace. */
export function uniqueSourceNames(name: string, schema: CompanyPropertySchema): string[] {
  if (name === 'domain' || name === 'hs_additional_domains') return ['domain', 'hs_additional_domains'];
  return schema.find(name)?.hasUniqueValue ? [name] : [];
}

export function requireNameOrDomain(properties: Record<string, string>): void {
  if (!properties.name && !properties.domain) {
    throw new ValidationError('A company needs at least one of the properties name or domain', {
      context: { properties: ['name', 'domain'] },
      errors: [
        {
          message: 'name or domain is required',
          code: 'REQUIRED_PROPERTY',
          context: { propertyName: ['name', 'domain'] },
        },
      ],
    });
  }
}

export function historyEntry(value: string, timestamp: string, actor: Actor): HistoryEntry {
  return { value, timestamp, sourceType: 'INTEGRATION', sourceId: String(actor.appId) };
}

export function appendHistory(history: HistoryEntry[] | undefined, entry: HistoryEntry): HistoryEntry[] {
  return [entry, ...(history ?? [])].slice(0, maxHistoryPerProperty);
}

/** Keeps the item under DynamoDB's size limit: history is shortened before the write is refused. */
export function fitItemSize(record: CompanyRecord): CompanyRecord {
  if (Buffer.byteLength(JSON.stringify(record)) <= maxItemBytes) return record;
  const trimmed = {
    ...record,
    history: clientKeyedRecordOf(Object.entries(record.history).map(([name, entries]) => [name, entries.slice(0, 1)])),
  };
  if (Buffer.byteLength(JSON.stringify(trimmed)) <= maxItemBytes) return trimmed;
  throw new ValidationError('The company would exceed the maximum record size; shorten its property values', {
    context: { properties: Object.keys(record.properties) },
  });
}
