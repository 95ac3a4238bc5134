import path from 'node:path';
import { sourceModulesIn } from '../base/source-modules';
import type { CatalogTables } from './standard-catalog';

/** The folder of the catalog data: one module per type, named after it (`line-items.ts` for line_items), exporting its `tables`. */
export const catalogsDir = path.join(__dirname, 'catalogs');

/** The type name a catalog module's file names: `line-items.ts` holds line_items'; `custom-objects.ts` every custom type's system properties. */
export const catalogNameOf = (file: string): string => path.basename(file, '.ts').replaceAll('-', '_');

/**
 * The standard tables of every standard type and of custom objects (custom-object-types.ts
 * customObjectCatalogName), by type name, as the source holds them: every module of
 * shared/properties/catalogs/. Tests, the local runtime and bin/build-validators.ts read this; a
 * deployed bundle never does: it reads the one type it serves from the JSON file
 * bin/build-validators.ts writes of these tables (shared/properties/standard-catalogs.ts).
 */
export const sourceCatalogTables: Readonly<Record<string, CatalogTables>> = Object.fromEntries(
  sourceModulesIn<{ tables: CatalogTables }>(catalogsDir).map(({ file, module }) => [
    catalogNameOf(file),
    module.tables,
  ]),
);
