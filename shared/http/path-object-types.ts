import { anyCustomObjectScopes, customTypeTokens, withAccountTypes } from '../objects/account-object-types';
import { requireScopes, type AuthContext } from './auth';
import { installTypeLoader, type TypeLoader } from './http-handler';

/** The path parameters that name object types: a custom type among them is loaded for the request. */
const typeParameters = ['objectType', 'fromObjectType', 'toObjectType'] as const;

/**
 * Runs a handler with the custom object types its path (and `associations` query) names in view of
 * the type registry (shared/objects/account-object-types.ts): one Query of the account's schemas
 * when a token could name one, none otherwise. A caller without any custom object scope is refused
 * (403) before that read. Imported (for this effect) by the resolvers of the handlers whose paths
 * name object types: functions/objects, functions/properties, functions/associations.
 */
const loadPathTypes: TypeLoader = (auth, event, query, run) => {
  if (typeof auth !== 'object' || auth === null || !('hubId' in auth) || !('scopes' in auth)) return run();
  const path = event.pathParameters ?? {};
  const tokens: string[] = [];
  for (const name of typeParameters) {
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

installTypeLoader(loadPathTypes);
