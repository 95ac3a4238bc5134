import { ValidationError } from '../base/errors';
import { findObjectSchema } from '../db/object-schemas';
import { customTypeOfId } from '../objects/custom-object-types';
import { storedTypeById, type ObjectType } from '../objects/object-types';

/**
 * The stored type a list's objectTypeId names: a standard type this service stores (0-1 contacts,
 * 0-2 companies, 0-3 deals, 0-5 tickets, ...) or a custom type of the account (`2-<n>`, its schema
 * not archived); anything else answers 400 naming `field`.
 */
export async function requireListObjectType(hubId: number, objectTypeId: string, field: string): Promise<ObjectType> {
  const standard = storedTypeById(objectTypeId);
  if (standard && !standard.id.startsWith('2-')) return standard;
  const numericId = /^2-([0-9]{1,15})$/.exec(objectTypeId)?.[1];
  const schema = numericId === undefined ? undefined : await findObjectSchema(hubId, numericId);
  const custom = schema && !schema.archived ? customTypeOfId(objectTypeId) : undefined;
  if (!custom)
    throw new ValidationError(`No object type of this account has the id ${objectTypeId}`, {
      context: { [field]: [objectTypeId] },
    });
  return custom;
}

/** The keyed type of a list's stored objectTypeId (checked when the list was made). */
export function keyedTypeOfList(objectTypeId: string): ObjectType {
  const type = storedTypeById(objectTypeId) ?? customTypeOfId(objectTypeId);
  if (!type) throw new Error(`a list names the unknown type ${objectTypeId}`);
  return type;
}
