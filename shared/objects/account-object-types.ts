import { runWithRequestTypes } from './request-object-types';
import type { AssociationType } from '../db/association-labels';
import { listObjectSchemas, type StoredObjectSchema } from '../db/object-schemas';
import { customObjectScopes, customObjectType, isCustomTypeToken, tokenNamesCustomType } from './custom-object-types';
import { findObjectType, type ObjectType } from './object-types';

/**
 * The object types of one account: the registry's standard types, and the custom types its schemas
 * define. A token a standard type answers costs no read; a custom one (`2-<id>`,
 * `p<hubId>_<name>`, `p_<name>`) one Query of the account's schemas.
 */

/** A schema's association definitions as association types, both directions (unlabeled, USER_DEFINED). */
export function schemaAssociationTypes(schema: Pick<StoredObjectSchema, 'associations'>): AssociationType[] {
  return schema.associations.flatMap((definition): AssociationType[] => {
    const forward: AssociationType = {
      typeId: Number(definition.id),
      category: 'USER_DEFINED',
      fromObjectTypeId: definition.fromObjectTypeId,
      toObjectTypeId: definition.toObjectTypeId,
      label: null,
      name: definition.name,
      inverseTypeId: Number(definition.inverseId),
      inverseName: definition.id === definition.inverseId ? definition.name : `${definition.name}_inverse`,
    };
    if (definition.id === definition.inverseId) return [forward];
    return [
      forward,
      {
        ...forward,
        typeId: forward.inverseTypeId,
        fromObjectTypeId: forward.toObjectTypeId,
        toObjectTypeId: forward.fromObjectTypeId,
        name: forward.inverseName,
        inverseTypeId: forward.typeId,
        inverseName: forward.name,
      },
    ];
  });
}

/** The registry entry of a stored schema. */
export function typeOfSchema(hubId: number, schema: StoredObjectSchema): ObjectType {
  return {
    ...customObjectType({
      id: schema.id,
      hubId,
      name: schema.name,
      requiredProperties: schema.requiredProperties,
      searchableProperties: schema.searchableProperties,
      ...(schema.primaryDisplayProperty ? { primaryDisplayProperty: schema.primaryDisplayProperty } : {}),
    }),
    associationTypes: schemaAssociationTypes(schema),
  };
}

/** The live schema of the account (an archived one, with `isArchived`) that the token names (its type id, fully qualified name or `p_<name>`). */
export function schemaNamedBy(
  hubId: number,
  schemas: readonly StoredObjectSchema[],
  token: string,
  isArchived = false,
): StoredObjectSchema | undefined {
  return schemas.find(
    (schema) =>
      schema.archived === isArchived && tokenNamesCustomType(token, { id: schema.id, hubId, name: schema.name }),
  );
}

/** Any custom object scope: the HTTP layer refuses a request naming a custom type without one (403) before the account's schemas are read. */
export const anyCustomObjectScopes: readonly string[] = [
  ...customObjectScopes.records.read,
  ...customObjectScopes.records.write,
  ...customObjectScopes.properties.read,
  ...customObjectScopes.properties.write,
].filter((scope, index, all) => all.indexOf(scope) === index);

/** The tokens (trimmed) that could name a custom type and name no standard one. */
export function customTypeTokens(tokens: readonly string[]): string[] {
  return tokens.map((token) => token.trim()).filter((token) => !findObjectType(token) && isCustomTypeToken(token));
}

/**
 * Runs a request with the custom types these tokens (customTypeTokens) name in view of the
 * registry's lookups (request-object-types.ts): the account's schemas are read once (one Query); a
 * token that names none stays unknown (the handler answers 400 naming it, as for any unknown type).
 */
export async function withAccountTypes<T>(hubId: number, tokens: readonly string[], fn: () => Promise<T>): Promise<T> {
  const schemas = await listObjectSchemas(hubId);
  const types = new Map<string, ObjectType>();
  for (const token of tokens) {
    const schema = schemaNamedBy(hubId, schemas, token);
    if (!schema) continue;
    const type = typeOfSchema(hubId, schema);
    types.set(token.toLowerCase(), type);
    types.set(type.id, type);
  }
  return runWithRequestTypes(types, fn);
}
