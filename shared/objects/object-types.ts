import { standardTypes } from '#standard-types';
import { ValidationError } from '../base/errors';
import type { ObjectType } from './object-type';
import { customTypeIdPattern, customTypeOfId } from './custom-object-types';
import { requestObjectType } from './request-object-types';
import { objectType as companies } from './types/companies';

/**
 * The registry of CRM object types: what the engine knows of a type is its entry here, never a
 * check of its name. Ids and names are HubSpot's (https://developers.hubspot.com/docs/guides/crm/using-object-apis);
 * scopes, default properties and modified-date names as reference/HUBSPOT-WIRE-FACTS-3.md states them.
 * A standard type's entry is its module's (shared/objects/types/<type>.ts); a custom type's is built
 * from its schema (custom-object-types.ts). What an entry states: ObjectType (object-type.ts).
 */
export type { ObjectType } from './object-type';

/** The standard types: one module each (shared/objects/types/), in the order the service lists them. */
export const objectTypes: readonly ObjectType[] = standardTypes;

/** Companies' entry (shared/objects/types/companies.ts). */
export const companyObjectType = companies;

/** The types whose records this service stores: the `/crm/v3/objects/{objectType}` rows serve these. */
export const storedObjectTypes: readonly ObjectType[] = objectTypes.filter((type) => type.isStored);

const byToken = new Map<string, ObjectType>();
for (const type of objectTypes) {
  byToken.set(type.id, type);
  byToken.set(type.name, type);
  byToken.set(type.singular, type);
}

/** The type's singular name as words (`line item`), and with a capital (`Line item`), for messages. */
export const singularWords = (type: Pick<ObjectType, 'singular'>): string => type.singular.replaceAll('_', ' ');
export const singularTitle = (type: Pick<ObjectType, 'singular'>): string => {
  const words = singularWords(type);
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}`;
};

/**
 * Plural name, singular name or object type id, in any case; or a custom type of the account the
 * request's path named (request-object-types.ts), by any of its tokens.
 */
export function findObjectType(token: string): ObjectType | undefined {
  return byToken.get(token.trim().toLowerCase()) ?? requestObjectType(token);
}

/**
 * A standard type by id, or a custom type: the request's, as its schema states it, when its path
 * named it; else known by its id alone (custom-object-types.ts customTypeOfId).
 */
export function objectTypeById(id: string): ObjectType | undefined {
  return byToken.get(id) ?? (customTypeIdPattern.test(id) ? (requestObjectType(id) ?? customTypeOfId(id)) : undefined);
}

/** The stored type with this id (the first part of an association key), or undefined for any other id. */
export function storedTypeById(id: string): ObjectType | undefined {
  const type = objectTypeById(id);
  return type?.isStored && type.id === id ? type : undefined;
}

/** The type a token names (plural name, singular name or type id, in any case); else 400 VALIDATION_ERROR naming the token under `field`. */
export function requireObjectType(token: string, field = 'objectType'): ObjectType {
  const type = findObjectType(token);
  if (!type) throw unknownObjectType(token, field);
  return type;
}

/** What a token that names no type answers: 400 VALIDATION_ERROR naming it under `field`. */
export const unknownObjectType = (token: string, field = 'objectType'): ValidationError =>
  new ValidationError(`Unable to infer object type from: ${token}`, { context: { [field]: [token] } });

/** A stored type whose records can be merged; any other answers 400 VALIDATION_ERROR naming the token. */
export function requireMergeableObjectType(token: string): ObjectType {
  return requireMergeable(requireStoredObjectType(token), token);
}

/** The type, when its records can be merged; else 400 VALIDATION_ERROR naming the token that named it. */
export function requireMergeable(type: ObjectType, token: string): ObjectType {
  if (!type.isMergeable) {
    throw new ValidationError(`Records of ${type.name} (${type.id}) cannot be merged: ${token} has no merge`, {
      context: { objectType: [token] },
    });
  }
  return type;
}

/**
 * A type whose records this service stores; a known type it does not store yet, like an unknown
 * token, answers 400 VALIDATION_ERROR naming the token.
 */
export function requireStoredObjectType(token: string): ObjectType {
  return requireStored(requireObjectType(token), token);
}

/** The type, when this service stores its records; else 400 VALIDATION_ERROR naming the token that named it. */
export function requireStored(type: ObjectType, token: string): ObjectType {
  if (!type.isStored) {
    throw new ValidationError(
      `Records of ${type.name} (${type.id}) are not stored by this service yet: ${token} cannot be used here. Stored types: ${storedObjectTypes.map((stored) => `${stored.name} (${stored.id})`).join(', ')}, and the account's custom objects.`,
      { context: { objectType: [token] } },
    );
  }
  return type;
}
