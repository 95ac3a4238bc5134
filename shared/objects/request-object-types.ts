import { AsyncLocalStorage } from 'node:async_hooks';
import type { ObjectType } from './object-type';

/**
 * The custom object types a request's path names, loaded once for the request by the HTTP layer
 * (account-object-types.ts withAccountTypes) and seen by the registry's lookups
 * (object-types.ts findObjectType, objectTypeById) for the rest of that request only: the engine
 * resolves a type token wherever it meets one, synchronously, and a custom type is data of one
 * account. Async-local, so concurrent requests in one process (the local runtime) never see
 * each other's types.
 */
const requestTypes = new AsyncLocalStorage<ReadonlyMap<string, ObjectType>>();

/** Runs `fn` with these types (by lower-case token and by type id) in view. */
export function runWithRequestTypes<T>(types: ReadonlyMap<string, ObjectType>, fn: () => T): T {
  return requestTypes.run(types, fn);
}

/** The custom type a token names in the current request, if its path named it. */
export function requestObjectType(token: string): ObjectType | undefined {
  return requestTypes.getStore()?.get(token.trim().toLowerCase());
}
