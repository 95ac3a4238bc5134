import type { ObjectType } from '../objects/object-types';
import * as recordsDb from '../db/records';
import { findMergedRecords } from './merged-ids';
import { NotFoundError, ValidationError } from '../base/errors';
import { getPropertyRules, loadPropertySchema } from '../properties/type-properties';
import type { PropertyLookup } from '../properties/validate-property-values';
import { isNumericId } from './record-id';
import { maxUniqueValueBytes, uniquePropertyOf } from './record-values';
import { rulesOf } from './type-rules-lookup';
import {
  namesNeedingDefinitions,
  parseAssociationTypes,
  parseNameList,
  standardLookupOf,
  toRecordView,
  type RecordView,
  type ReadOptions,
} from './record-view';

/** The read parameters as they arrive in a query string (lists comma-joined). */
export interface RecordReadQuery {
  properties?: string;
  propertiesWithHistory?: string;
  associations?: string;
  archived?: boolean;
}

export function readOptionsOf(query: RecordReadQuery): ReadOptions {
  return {
    properties: parseNameList(query.properties),
    propertiesWithHistory: parseNameList(query.propertiesWithHistory),
    associations: parseAssociationTypes(query.associations),
  };
}

/** A record of another hub answers exactly like a missing one: same status, same body. */
export function recordNotFound(id: string): NotFoundError {
  return isNumericId(id)
    ? new NotFoundError('resource not found', { context: { id: [id] } })
    : new NotFoundError('Object not found.  objectId are usually numeric.', { context: { id: [id] } });
}

/** Custom definitions are read only when a requested name is not standard. */
export async function lookupFor(type: ObjectType, hubId: number, options: ReadOptions): Promise<PropertyLookup> {
  const names = namesNeedingDefinitions(type, options);
  return names.length === 0 ? standardLookupOf(type) : loadPropertySchema(type, hubId, names);
}

/** The unique property an idProperty names: hs_object_id (the id itself), the type's unique property (domain, email), or a custom hasUniqueValue property. */
export async function requireIdProperty(
  type: ObjectType,
  hubId: number,
  idProperty: string | undefined,
): Promise<string> {
  if (idProperty === undefined || idProperty === 'hs_object_id') return 'hs_object_id';
  if (idProperty === uniquePropertyOf(type)) return idProperty;
  const definition = await getPropertyRules(type, hubId, idProperty).catch(() => undefined);
  if (!definition?.hasUniqueValue) {
    throw new ValidationError(`idProperty ${JSON.stringify(idProperty)} is not a property with unique values`, {
      context: { idProperty: [idProperty] },
    });
  }
  return definition.name;
}

/** The stored form of a unique value given as an id (domains and emails are normalized). */
export function uniqueValueOf(type: ObjectType, propertyName: string, raw: string): string | undefined {
  const normalize = rulesOf(type).normalizeUniqueValue;
  const value = propertyName === uniquePropertyOf(type) && normalize ? normalize(raw) : raw;
  // No stored unique value is longer; a longer one would not even fit a key.
  return value !== undefined && value !== '' && Buffer.byteLength(value) <= maxUniqueValueBytes ? value : undefined;
}

/** Resolves an id given through idProperty to the record id; undefined when nothing holds it. */
export async function resolveRecordId(
  type: ObjectType,
  hubId: number,
  id: string,
  idProperty: string | undefined,
): Promise<string | undefined> {
  const propertyName = await requireIdProperty(type, hubId, idProperty);
  if (propertyName === 'hs_object_id') return isNumericId(id) ? id : undefined;
  const value = uniqueValueOf(type, propertyName, id);
  return value === undefined || value === ''
    ? undefined
    : recordsDb.findUniqueValueOwner(type, hubId, { propertyName, value });
}

export async function getRecord(
  type: ObjectType,
  hubId: number,
  id: string,
  query: RecordReadQuery & { idProperty?: string },
): Promise<RecordView> {
  const recordId = await resolveRecordId(type, hubId, id, query.idProperty);
  let record =
    recordId === undefined ? undefined : await recordsDb.findRecord(type, hubId, recordId, query.archived ?? false);
  // An id merged away reads as the record that holds the merge's result (with its new id).
  if (!record && recordId !== undefined && !query.archived)
    record = (await findMergedRecords(type, hubId, [recordId])).get(recordId);
  if (!record) throw recordNotFound(id);
  const options = readOptionsOf(query);
  return toRecordView(type, record, options, await lookupFor(type, hubId, options));
}

export interface RecordListQuery extends RecordReadQuery {
  limit?: number;
  after?: string;
}

export interface RecordList {
  results: RecordView[];
  paging?: { next: { after: string; link: string } };
}

export const defaultListLimit = 10;
export const maxListLimit = 100;

/** One Query per page, whatever the size of the hub; `after` is the last id of the previous page. */
export async function listRecords(
  type: ObjectType,
  hubId: number,
  query: RecordListQuery,
  linkFor: (after: string) => string,
): Promise<RecordList> {
  const limit = query.limit ?? defaultListLimit;
  if (!Number.isInteger(limit) || limit < 1 || limit > maxListLimit) {
    throw new ValidationError(`limit must be between 1 and ${maxListLimit}`, { context: { limit: [String(limit)] } });
  }
  if (query.after !== undefined && !isNumericId(query.after)) {
    throw new ValidationError('after is not a paging cursor this API returned', { context: { after: [query.after] } });
  }
  const page = await recordsDb.listRecords(type, hubId, query.archived ?? false, limit, query.after);
  const options = readOptionsOf(query);
  const lookup = await lookupFor(type, hubId, options);
  const results = page.records.map((record) => toRecordView(type, record, options, lookup));
  const last = page.records.at(-1);
  return page.hasMore && last ? { results, paging: { next: { after: last.id, link: linkFor(last.id) } } } : { results };
}
