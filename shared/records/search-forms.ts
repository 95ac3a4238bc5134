import { orderFormsOf, type OrderForms } from '../db/order-index';
import type { SearchableRecord, SearchForms } from '../db/search-projection';
import type { ObjectType } from '../objects/object-types';
import { standardRulesOf } from '../properties/standard-catalogs';
import { rulesOf } from './type-rules-lookup';

/**
 * The searchable forms of a record's values. The write path needs no property definitions: a
 * custom property gets every form that applies and the search picks one by type when it reads;
 * a standard property (its type is fixed) gets only the forms its type compares.
 *   v: the stored value (enumerations and bools compare it exactly);
 *   l: the lower-cased value, only where it differs from v (strings compare case-insensitively);
 *   n: an order-preserving string of the value as a number or instant (numbers, dates, datetimes).
 * Every form is a string, so DynamoDB compares n exactly as numbers compare (byte order of hex).
 */
// The forms and their source are declared where they are stored.
export type { SearchableRecord, SearchForms } from '../db/search-projection';

const numberPattern = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const epochMsPattern = /^-?\d{1,15}$/;
const isoInstantPattern = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** A double as 16 hex digits whose string order is the numeric order (sign bit flipped, negatives inverted). */
export function sortableNumber(value: number): string {
  const bytes = Buffer.alloc(8);
  bytes.writeDoubleBE(value === 0 ? 0 : value);
  if ((bytes[0] ?? 0) & 0x80) {
    for (let index = 0; index < 8; index += 1) bytes[index] = ~(bytes[index] ?? 0) & 0xff;
  } else {
    bytes[0] = (bytes[0] ?? 0) | 0x80;
  }
  return bytes.toString('hex');
}

export function parseSearchNumber(raw: string): number | undefined {
  const trimmed = raw.trim();
  if (!numberPattern.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : undefined;
}

/** ISO 8601 (a date alone is midnight UTC) or epoch milliseconds. */
export function parseSearchInstant(raw: string): number | undefined {
  const trimmed = raw.trim();
  if (epochMsPattern.test(trimmed)) return Number(trimmed);
  if (!isoInstantPattern.test(trimmed)) return undefined;
  const ms = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(trimmed) ? `${trimmed}T00:00:00Z` : trimmed);
  return Number.isFinite(ms) ? ms : undefined;
}

/** The n form of a stored value: numbers as numbers, stored dates and datetimes (ISO) as instants. */
function numericForm(value: string): string | undefined {
  const number = parseSearchNumber(value);
  if (number !== undefined) return sortableNumber(number);
  const instant = isoInstantPattern.test(value) ? parseSearchInstant(value) : undefined;
  return instant === undefined ? undefined : sortableNumber(instant);
}

/** The forms of a record of this type: its set values and the computed ones (id, create and modified dates under the type's names). */
export function searchFormsOf(type: ObjectType, record: SearchableRecord): SearchForms {
  const values: Record<string, string> = {
    ...record.properties,
    hs_object_id: record.id,
    createdate: record.createdAt,
    hs_lastmodifieddate: record.updatedAt,
    [type.modifiedProperty]: record.updatedAt,
  };
  const catalog = standardRulesOf(type);
  if (catalog.find('hs_createdate')) values.hs_createdate = record.createdAt;
  for (const [name, compute] of Object.entries(rulesOf(type).computed ?? {})) {
    const value = compute(record.properties);
    if (value !== undefined) values[name] = value;
  }
  const forms: SearchForms = { id: record.id, v: {}, l: {}, n: {} };
  for (const [name, value] of Object.entries(values)) {
    if (value === '') continue;
    // v always: presence, tokens and the values a search answers with.
    forms.v[name] = value;
    const valueType = catalog.find(name)?.type;
    const isOrdered = valueType === 'number' || valueType === 'date' || valueType === 'datetime';
    const isExact = valueType === 'enumeration' || valueType === 'bool';
    const lower = value.toLowerCase();
    if (lower !== value && !isOrdered && !isExact) forms.l[name] = lower;
    const numeric = valueType === undefined || isOrdered ? numericForm(value) : undefined;
    if (numeric !== undefined) forms.n[name] = numeric;
  }
  return forms;
}

/** A stored record's place in the ordered index (its create and modified forms), as a change of it must name (RecordWrite.previousOrder). */
export const orderFormsOfRecord = (type: ObjectType, record: SearchableRecord): OrderForms =>
  orderFormsOf(searchFormsOf(type, record));
