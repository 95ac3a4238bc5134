import { sourceCatalogTables } from './source-catalog-tables';
import type { CatalogTables } from './standard-catalog';

/**
 * The standard catalog tables of a type run from source (tests, the local runtime, the build step):
 * the catalog modules themselves. `#catalog-files` resolves here (package.json `imports`); in a
 * function's bundle it resolves to the module bin/build-validators.ts writes, which has the same
 * export and reads the JSON files beside the bundle.
 */
export function catalogTables(name: string): CatalogTables | undefined {
  return Object.hasOwn(sourceCatalogTables, name) ? sourceCatalogTables[name] : undefined;
}
