import { standardTypes } from '#standard-types';
import type { Scope } from '../oauth/scopes';
import { customObjectScopes } from './custom-object-types';
import { objectType as companies } from './types/companies';
import { objectType as contacts } from './types/contacts';

export { customObjectScopes } from './custom-object-types';

/** The scope lists the route table names, from the types' modules (shared/objects/types/). */
export const contactWriteScopes = contacts.scopes.write;
export const companyReadScopes = companies.scopes.read;
export const companyWriteScopes = companies.scopes.write;

/** The schemas API (`/crm-object-schemas/v3/schemas`): read with either custom read scope, written with the schema write scope. */
export const schemaReadScopes = customObjectScopes.properties.read;
export const schemaWriteScopes = customObjectScopes.properties.write;

/** The record and property scopes of the stored types and of custom objects: what an `{objectType}` row may accept before it knows the type. */
interface TypeScopes {
  scopes: { read: readonly Scope[]; write: readonly Scope[] };
  propertyScopes: { read: readonly Scope[]; write: readonly Scope[] };
  isStored: boolean;
}

/**
 * The route table's unions of these types' scopes (any one scope of any stored type, then of custom
 * objects): the handler then requires the path's type's own. The labels rows take a record or a
 * schema scope of any of them.
 */
export function scopeUnionsOf(types: readonly TypeScopes[]) {
  const union = (lists: readonly (readonly Scope[])[]): readonly Scope[] => [...new Set(lists.flat())];
  const stored = types.filter((type) => type.isStored);
  const objectRead = union([...stored.map((type) => type.scopes.read), customObjectScopes.records.read]);
  const objectWrite = union([...stored.map((type) => type.scopes.write), customObjectScopes.records.write]);
  const propertyRead = union([...stored.map((type) => type.propertyScopes.read), customObjectScopes.properties.read]);
  const propertyWrite = union([
    ...stored.map((type) => type.propertyScopes.write),
    customObjectScopes.properties.write,
  ]);
  return {
    objectRead,
    objectWrite,
    propertyRead,
    propertyWrite,
    labelRead: union([objectRead, propertyRead]),
    labelWrite: union([objectWrite, propertyWrite]),
  };
}

const unions = scopeUnionsOf(standardTypes);

/** What an `{objectType}` row asks before it knows the type: any scope of any stored type; the handler then requires the type's own. */
export const anyStoredObjectReadScopes: readonly Scope[] = unions.objectRead;
export const anyStoredObjectWriteScopes: readonly Scope[] = unions.objectWrite;

/** The same for the `/crm/v3/properties/{objectType}` rows. */
export const anyStoredPropertyReadScopes: readonly Scope[] = unions.propertyRead;
export const anyStoredPropertyWriteScopes: readonly Scope[] = unions.propertyWrite;

/** The association label rows: any stored type's record or schema scope; the handler then requires the path's first type's. */
export const anyStoredLabelReadScopes: readonly Scope[] = unions.labelRead;
export const anyStoredLabelWriteScopes: readonly Scope[] = unions.labelWrite;
