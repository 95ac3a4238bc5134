import { objectTypeParameters } from '../base/route-types';
import { anyCustomObjectScopes, customTypeTokens, withAccountTypes } from '../objects/account-object-types';
import { requireScopes, type AuthContext } from './auth';
import type { TypeLoader } from './middlewares';

/**
 * Runs a handler with the custom object types its path (and `associations` query) names in view of
 * the type registry (shared/objects/account-object-types.ts): one Query of the account's schemas
 * when a token could name one, none otherwise. A caller without any custom object scope is refused
 * (403) before that read. The route parts of the rows whose paths name an object type
 * carry it (RouteParts, shared/http/middlewares.ts).
 */
export const loadPathTypes: TypeLoader = (auth, event, query, run) => {
  if (typeof auth !== 'object' || auth === null || !('hubId' in auth) || !('scopes' in auth)) return run();
  const path = event.pathParameters ?? {};
  const tokens: string[] = [];
  for (const name of objectTypeParameters) {
    const value = path[name];
    if (typeof value === 'string') tokens.push(value);
  }
  const associations = (query as { associations?: unknown } | undefined)?.associations;
  if (typeof associations === 'string') tokens.push(...associations.split(',').slice(0, 100));
  const custom = customTypeTokens(tokens);
  if (custom.length === 0) return run();
  const { hubId, scopes } = auth as AuthContext;
  requireScopes(scopes, anyCustomObjectScopes);
  return withAccountTypes(hubId, custom, run);
};
