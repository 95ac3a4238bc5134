import { resolveScopedType, type AuthContext } from '../../shared/http/auth';
import { requireObjectType } from '../../shared/objects/object-types';

/**
 * The scope of the path's first object type, before any work (403 MISSING_SCOPES listing its
 * alternatives; an unknown type: 400 naming the token): the row only asked for any stored type's
 * scope. Reading needs the from-type's read scope, writing its write scope; the other record is
 * only checked to exist in the account.
 */
export function requireFromTypeScope(
  auth: Pick<AuthContext, 'scopes'>,
  token: string,
  field: 'objectType' | 'fromObjectType',
  access: 'read' | 'write',
): void {
  resolveScopedType(
    auth,
    token,
    (value) => requireObjectType(value, field),
    (type) => type.scopes[access],
  );
}

/** The label routes: the first type's record scope or its schema (property) scope, read or write. */
export function requireLabelScope(auth: Pick<AuthContext, 'scopes'>, token: string, access: 'read' | 'write'): void {
  resolveScopedType(
    auth,
    token,
    (value) => requireObjectType(value, 'fromObjectType'),
    (type) => [...type.scopes[access], ...type.propertyScopes[access]],
  );
}
