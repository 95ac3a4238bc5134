import { resolveScopedType, type AuthContext } from '../../shared/http/auth';
import {
  requireMergeableObjectType,
  requireStoredObjectType,
  type ObjectType,
} from '../../shared/objects/object-types';

/**
 * The path's object type from the type registry (400 VALIDATION_ERROR naming the token when it is
 * unknown or its records are not stored yet), then the scope of that type (403 MISSING_SCOPES
 * listing its alternatives): the route row only asked for any stored type's scope.
 */
export function resolveObjectType(
  auth: AuthContext,
  token: string,
  access: 'read' | 'write',
  require: (token: string) => ObjectType = requireStoredObjectType,
): ObjectType {
  return resolveScopedType(auth, token, require, (type) => type.scopes[access]);
}

/** The same for a merge: a type without one (activities, products, line items) answers 400 naming the token. */
export const resolveMergeableType = (auth: AuthContext, token: string): ObjectType =>
  resolveObjectType(auth, token, 'write', requireMergeableObjectType);

/** Where a type's records live as the request spelled its version: `/crm/v3/objects` or `/crm/objects/2026-03`. */
export const objectsPrefix = (version: string | undefined): string =>
  version ? `/crm/objects/${version}` : '/crm/v3/objects';
