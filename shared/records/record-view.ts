import { findObjectType, type ObjectType } from '../objects/object-types';
import type { CrmRecord, HistoryEntry } from '../db/records';
import { standardRulesOf } from '../properties/standard-catalogs';
import type { PropertyLookup } from '../properties/validate-property-values';
import { clientKeyedRecord, ownValue } from '../base/client-keys';
import { rulesOf } from './type-rules-lookup';

/** The v3 record shape (SimplePublicObject / ...WithAssociations). */
export interface RecordView {
  id: string;
  properties: Record<string, string | null>;
  propertiesWithHistory?: Record<string, HistoryEntry[]>;
  associations?: Record<string, { results: { id: string; type: string }[] }>;
  createdAt: string;
  updatedAt: string;
  archived: boolean;
  archivedAt?: string;
}

export interface ReadOptions {
  /** Undefined: the default properties. */
  properties?: readonly string[];
  propertiesWithHistory?: readonly string[];
  associations?: readonly ObjectType[];
}

/**
 * API Gateway joins repeated query parameters with commas, and other clients send one
 * comma-separated value: both arrive here as "a,b".
 */
export function parseNameList(raw: string | readonly string[] | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const parts = (typeof raw === 'string' ? [raw] : raw).flatMap((entry) => entry.split(','));
  const names = [...new Set(parts.map((part) => part.trim()).filter((part) => part !== ''))];
  // `properties=` with nothing in it asks for nothing in particular: the defaults.
  return names.length > 0 ? names : undefined;
}

/** Unknown object types are ignored, as the real API does. */
export function parseAssociationTypes(raw: string | undefined): ObjectType[] | undefined {
  const names = parseNameList(raw);
  if (!names) return undefined;
  const types = names.map(findObjectType).filter((type): type is ObjectType => type !== undefined);
  return [...new Map(types.map((type) => [type.id, type])).values()];
}

/** The id of the record the associations hold by this association type (the first, when several). */
function heldIdOf(associations: Record<string, string>, toObjectTypeId: string, typeId: number): string | undefined {
  const [prefix, suffix] = [`${toObjectTypeId}/`, `/${typeId}`];
  return Object.keys(associations)
    .find((key) => key.startsWith(prefix) && key.endsWith(suffix))
    ?.slice(prefix.length, -suffix.length);
}

/**
 * Values the platform keeps: the id, and the create and modified dates under every name the type
 * has for them (contacts keep `lastmodifieddate` and also have `hs_lastmodifieddate` and
 * `hs_createdate`; a name not in the type's catalog is not returned); what the type's rules read
 * from its associations (a contact's `associatedcompanyid`, its primary company); and what they
 * compute (a line item's `amount`, an activity's `hs_body_preview`).
 */
function computedValue(type: ObjectType, record: CrmRecord, name: string): string | undefined {
  if (name === 'hs_object_id') return record.id;
  const held = rulesOf(type).associatedIds;
  if (held && Object.hasOwn(held, name)) return heldIdOf(record.associations, ...(held[name] ?? ['', 0]));
  if (name === 'createdate' || name === 'hs_createdate') return record.createdAt;
  if (name === type.modifiedProperty || name === 'hs_lastmodifieddate') return record.updatedAt;
  return rulesOf(type).computed?.[name]?.(record.properties);
}

export function propertyValue(type: ObjectType, record: CrmRecord, name: string): string | undefined {
  return computedValue(type, record, name) ?? ownValue(record.properties, name);
}

function historyOf(type: ObjectType, record: CrmRecord, name: string): HistoryEntry[] | undefined {
  const computed = computedValue(type, record, name);
  if (computed !== undefined) {
    return [
      {
        value: computed,
        timestamp:
          name === type.modifiedProperty || name === 'hs_lastmodifieddate' ? record.updatedAt : record.createdAt,
        sourceType: 'CALCULATED',
      },
    ];
  }
  return ownValue(record.history, name);
}

/**
 * Requested names that only a custom-property lookup can classify: not standard. Reads load the
 * hub's definitions only when this is not empty: a custom property may have been archived, and
 * its stored values are then no longer returned.
 */
export function namesNeedingDefinitions(type: ObjectType, options: ReadOptions): string[] {
  // The defaults are standard properties, but for a custom type's primary display property.
  const names = new Set([...(options.properties ?? type.defaultProperties), ...(options.propertiesWithHistory ?? [])]);
  const catalog = standardRulesOf(type);
  return [...names].filter((name) => !catalog.find(name));
}

/** Values of a custom property stay stored when it is archived, but are not returned. */
const isReturned = (type: ObjectType, name: string, lookup: PropertyLookup) =>
  standardRulesOf(type).find(name) !== undefined || lookup.find(name) !== undefined;

/** The type's standard properties only: what a read needs when it names no custom property. */
export const standardLookupOf = (type: ObjectType): PropertyLookup => standardRulesOf(type);

/**
 * Shapes a record for the wire. Requested properties without a value come back as null when
 * the property exists and are left out when it does not (unknown names are ignored).
 */
/** The properties a write answers with: the defaults and every property the write sent. */
export function defaultsAnd(type: ObjectType, sentNames: readonly string[]): string[] {
  return [...new Set([...type.defaultProperties, ...sentNames])];
}

export function toRecordView(
  type: ObjectType,
  record: CrmRecord,
  options: ReadOptions,
  lookup: PropertyLookup = standardLookupOf(type),
  omitUnset = false,
): RecordView {
  const properties = clientKeyedRecord<string | null>();
  for (const name of options.properties ?? type.defaultProperties) {
    const value = propertyValue(type, record, name);
    if (value !== undefined && isReturned(type, name, lookup)) properties[name] = value;
    else if (!omitUnset && lookup.find(name)) properties[name] = null;
  }
  const view: RecordView = {
    id: record.id,
    properties,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    archived: record.archived,
  };
  if (record.archivedAt) view.archivedAt = record.archivedAt;
  if (options.propertiesWithHistory && options.propertiesWithHistory.length > 0) {
    const history = clientKeyedRecord<HistoryEntry[]>();
    for (const name of options.propertiesWithHistory) {
      const entries = historyOf(type, record, name);
      if (entries && isReturned(type, name, lookup)) history[name] = entries;
      else if (lookup.find(name)) history[name] = [];
    }
    view.propertiesWithHistory = history;
  }
  const associations = associationsOf(record, options.associations ?? []);
  if (associations) view.associations = associations;
  return view;
}

export function associationKey(toObjectTypeId: string, toObjectId: string, typeId: number): string {
  return `${toObjectTypeId}/${toObjectId}/${typeId}`;
}

export function parseAssociationKey(
  key: string,
): { toObjectTypeId: string; toObjectId: string; typeId: number } | undefined {
  const [toObjectTypeId, toObjectId, typeId] = key.split('/');
  if (toObjectTypeId === undefined || toObjectId === undefined || typeId === undefined) return undefined;
  return { toObjectTypeId, toObjectId, typeId: Number(typeId) };
}

/** Ids per requested type; a type without associations is left out, and so is the whole map when empty. */
export function associationsOf(record: CrmRecord, types: readonly ObjectType[]): RecordView['associations'] {
  const result: NonNullable<RecordView['associations']> = {};
  for (const type of types) {
    const entries = Object.entries(record.associations)
      .map(([key, name]) => ({ parsed: parseAssociationKey(key), name }))
      .filter((entry) => entry.parsed?.toObjectTypeId === type.id)
      .map((entry) => ({ id: entry.parsed?.toObjectId ?? '', type: entry.name }))
      .sort((a, b) => a.id.length - b.id.length || a.id.localeCompare(b.id) || a.type.localeCompare(b.type));
    if (entries.length > 0) result[type.name] = { results: entries };
  }
  return Object.keys(result).length > 0 ? result : undefined;
}
