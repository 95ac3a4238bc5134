import * as companies from '../db/records';
import { findMergedRecords } from './merged-ids';
import { NotFoundError, ValidationError } from '../base/errors';
import { getCompanyProperty, loadCompanyPropertySchema } from '../properties/type-properties';
import type { PropertyLookup } from '../properties/validate-property-values';
import { isNumericId } from './record-id';
import { maxUniqueValueBytes, uniqueDomainProperty } from './record-values';
import {
  namesNeedingDefinitions,
  parseAssociationTypes,
  parseNameList,
  standardLookup,
  toCompanyView,
  type CompanyView,
  type ReadOptions,
} from './record-view';
import { normalizeDomain } from '../companies/normalize-domain';

/** The read parameters as they arrive in a query string (lists comma-joined). */
export interface CompanyReadQuery {
  properties?: string;
  propertiesWithHistory?: string;
  associations?: string;
  archived?: boolean;
}

export function readOptionsOf(query: CompanyReadQuery): ReadOptions {
  return {
    properties: parseNameList(query.properties),
    propertiesWithHistory: parseNameList(query.propertiesWithHistory),
    associations: parseAssociationTypes(query.associations),
  };
}

/** A record of another hub answers exactly like a missing one: same status, same body. */
export function companyNotFound(id: string): NotFoundError {
  return isNumericId(id)
    ? new NotFoundError('resource not found', { context: { id: [id] } })
    : new NotFoundError('Object not found.  objectId are usually numeric.', { context: { id: [id] } });
}

/** Custom definitions are read only when a requested name is not standard. */
export async function lookupFor(hubId: number, options: ReadOptions): Promise<PropertyLookup> {
  const names = namesNeedingDefinitions(options);
  return names.length === 0 ? standardLookup : loadCompanyPropertySchema(hubId, names);
}

/** The unique property an idProperty names: hs_object_id (the id itself), domain, or a custom hasUniqueValue property. */
export async function requireIdProperty(hubId: number, idProperty: string | undefined): Promise<string> {
  if (idProperty === undefined || idProperty === 'hs_object_id') return 'hs_object_id';
  if (idProperty === 'domain') return uniqueDomainProperty;
  const definition = await getCompanyProperty(hubId, idProperty).catch(() => undefined);
  if (!definition?.hasUniqueValue) {
    throw new ValidationError(`idProperty ${JSON.stringify(idProperty)} is not a property with unique values`, {
      context: { idProperty: [idProperty] },
    });
  }
  return definition.name;
}

/** The stored form of a unique value given as an id (domains are normalized). */
export function uniqueValueOf(propertyName: string, raw: string): string | undefined {
  const value = propertyName === uniqueDomainProperty ? normalizeDomain(raw) : raw;
  // No stored unique value is longer; a longer one would not even fit a key.
  return value !== undefined && value !== '' && Buffer.byteLength(value) <= maxUniqueValueBytes ? value : undefined;
}

/** Resolves an id given through idProperty to the company id; undefined when nothing holds it. */
export async function resolveCompanyId(
  hubId: number,
  id: string,
  idProperty: string | undefined,
): Promise<string | undefined> {
  const propertyName = await requireIdProperty(hubId, idProperty);
  if (propertyName === 'hs_object_id') return isNumericId(id) ? id : undefined;
  const value = uniqueValueOf(propertyName, id);
  return value === undefined || value === ''
    ? undefined
    : companies.findUniqueValueOwner(hubId, { propertyName, value });
}

export async function getCompany(
  hubId: number,
  id: string,
  query: CompanyReadQuery & { idProperty?: string },
): Promise<CompanyView> {
  const companyId = await resolveCompanyId(hubId, id, query.idProperty);
  let record =
    companyId === undefined ? undefined : await companies.findCompany(hubId, companyId, query.archived ?? false);
  // An id merged away reads as the record that holds the merge's result (with its new id).
  if (!record && companyId !== undefined && !query.archived)
    record = (await findMergedRecords(hubId, [companyId])).get(companyId);
  if (!record) throw companyNotFound(id);
  const options = readOptionsOf(query);
  return toCompanyView(record, options, await lookupFor(hubId, options));
}

export interface CompanyListQuery extends CompanyReadQuery {
  limit?: number;
  after?: string;
}

export interface CompanyList {
  results: CompanyView[];
  paging?: { next: { after: string; link: string } };
}

export const defaultListLimit = 10;
export const maxListLimit = 100;

/** One Query per page, whatever the size of the hub; `after` is the last id of the previous page. */
export async function listCompanies(
  hubId: number,
  query: CompanyListQuery,
  linkFor: (after: string) => string,
): Promise<CompanyList> {
  const limit = query.limit ?? defaultListLimit;
  if (!Number.isInteger(limit) || limit < 1 || limit > maxListLimit) {
    throw new ValidationError(`limit must be between 1 and ${maxListLimit}`, { context: { limit: [String(limit)] } });
  }
  if (query.after !== undefined && !isNumericId(query.after)) {
    throw new ValidationError('after is not a paging cursor this API returned', { context: { after: [query.after] } });
  }
  const page = await companies.listCompanies(hubId, query.archived ?? false, limit, query.after);
  const options = readOptionsOf(query);
  const lookup = await lookupFor(hubId, options);
  const results = page.records.map((record) => toCompanyView(record, options, lookup));
  const last = page.records.at(-1);
  return page.hasMore && last ? { results, paging: { next: { after: last.id, link: linkFor(last.id) } } } : { results };
}
