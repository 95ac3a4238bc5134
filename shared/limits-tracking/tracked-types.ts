import { listObjectSchemas, type StoredObjectSchema } from '../db/object-schemas';
import { typeOfSchema } from '../objects/account-object-types';
import { tokenNamesCustomType } from '../objects/custom-object-types';
import { findObjectType, storedObjectTypes, unknownObjectType, type ObjectType } from '../objects/object-types';

/** An object type as the limits tracking API names it (ObjectTypeDefinition). */
export interface ObjectTypeDefinition {
  objectTypeId: string;
  singularLabel: string;
  pluralLabel: string;
}

/** A type the limits are reported for: its entry (for its keys) and its definition. */
export interface TrackedType {
  type: ObjectType;
  definition: ObjectTypeDefinition;
  /** A custom type's schema: its id (digits) and name, which its tokens name. */
  schema?: Pick<StoredObjectSchema, 'id' | 'name'>;
}

const titled = (words: string): string => `${words.charAt(0).toUpperCase()}${words.slice(1)}`;

/** A standard type's labels from its names: `line_item`, `line_items` -> `Line item`, `Line items`. */
function standardDefinition(type: ObjectType): ObjectTypeDefinition {
  return {
    objectTypeId: type.id,
    singularLabel: titled(type.singular.replaceAll('_', ' ')),
    pluralLabel: titled(type.name.replaceAll('_', ' ')),
  };
}

/** A custom type's labels: its schema's, or its name where the schema gives none. */
function customDefinition(type: ObjectType, schema: StoredObjectSchema): ObjectTypeDefinition {
  return {
    objectTypeId: type.id,
    singularLabel: schema.labels.singular ?? schema.name,
    pluralLabel: schema.labels.plural ?? schema.labels.singular ?? schema.name,
  };
}

/** The HubSpot-defined types whose records this service stores, in the registry's order. */
export const standardTrackedTypes: readonly TrackedType[] = storedObjectTypes.map((type) => ({
  type,
  definition: standardDefinition(type),
}));

/** The account's live custom object types, in schema id order: one Query of its schemas (at most 10 of them, archived ones included). */
export async function customTrackedTypes(hubId: number): Promise<TrackedType[]> {
  return (await listObjectSchemas(hubId))
    .filter((schema) => !schema.archived)
    .map((schema) => {
      const type = typeOfSchema(hubId, schema);
      return { type, definition: customDefinition(type, schema), schema: { id: schema.id, name: schema.name } };
    });
}

/**
 * The type a token names among these (a standard type by id or name, in any case; a custom type by
 * its id, fully qualified name or `p_<name>`); else 400 VALIDATION_ERROR naming the token under `field`.
 */
export function requireTrackedType(
  hubId: number,
  types: readonly TrackedType[],
  token: string,
  field: string,
): TrackedType {
  const standardId = findObjectType(token)?.id;
  const found = types.find(({ type, schema }) =>
    schema ? tokenNamesCustomType(token.trim(), { ...schema, hubId }) : type.id === standardId,
  );
  if (!found) throw unknownObjectType(token, field);
  return found;
}
