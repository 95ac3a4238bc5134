import { resolveScopedType, type AuthContext } from '../../shared/http/auth';
import { requireStoredObjectType, type ObjectType } from '../../shared/objects/object-types';

/**
 * The path's object type from the type registry (400 VALIDATION_ERROR naming the token when it is
 * unknown or its records are not stored yet), then the type's property scope (403 MISSING_SCOPES
 * listing its alternatives): the route row only asked for any stored type's property scope.
 */
export function resolvePropertyType(auth: AuthContext, token: string, access: 'read' | 'write'): ObjectType {
  return resolveScopedType(auth, token, requireStoredObjectType, (type) => type.propertyScopes[access]);
}
