import { catalogTables } from '#catalog-files';
import type { ObjectType } from '../objects/object-types';
import {
  type CatalogTables,
  type StandardCatalog,
  type StandardOutline,
  type StandardRules,
  standardCatalog,
  standardOutline,
  standardRules,
} from './standard-catalog';

export type { StandardCatalog, StandardOutline, StandardRules } from './standard-catalog';

/**
 * HubSpot's standard properties and groups of each stored type: no item in the table, never changed.
 * Three views of a type's tables: the record functions read the rules, the properties API's writes
 * the outline (labels and groups), its reads the whole catalog.
 *
 * A type's tables come from `#catalog-files`. In a deployed bundle the import resolves to the module
 * bin/build-validators.ts writes (lib/bundling.ts aliases it), which reads the tables of a type from
 * a JSON file beside the bundle the first time a request names that type: no catalog is code of a
 * bundle, parsed at its cold start. Run from source (tests, the local runtime), it resolves to
 * shared/properties/source-catalog-files.ts, the catalog modules themselves.
 */

/** A type without a catalog of its own has no standard properties. */
const emptyTables: CatalogTables = { rows: [], labels: {}, descriptions: {}, defaultGroup: '', groups: [] };

interface Views {
  tables: CatalogTables;
  rules?: StandardRules;
  outline?: StandardOutline;
  catalog?: StandardCatalog;
}

/** Each type's tables, read once per process, and the views built of them on first use. */
const viewsByType = new Map<string, Views>();

function viewsOf(type: ObjectType): Views {
  const name = type.catalogName ?? type.name;
  let views = viewsByType.get(name);
  if (views === undefined) {
    views = { tables: catalogTables(name) ?? emptyTables };
    viewsByType.set(name, views);
  }
  return views;
}

/** The standard properties as the properties API returns them (its reads). */
export function catalogOf(type: ObjectType): StandardCatalog {
  const views = viewsOf(type);
  views.catalog ??= standardCatalog(views.tables);
  return views.catalog;
}

/** The names, labels and groups of the standard properties (the properties API's writes). */
export function standardOutlineOf(type: ObjectType): StandardOutline {
  const views = viewsOf(type);
  views.outline ??= standardOutline(views.tables);
  return views.outline;
}

/** The standard properties as the record functions check, store and search values by them. */
export function standardRulesOf(type: ObjectType): StandardRules {
  const views = viewsOf(type);
  views.rules ??= standardRules(views.tables.rows);
  return views.rules;
}
