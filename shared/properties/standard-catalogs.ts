import type { ObjectType } from '../objects/object-types';
import { companyCatalog, companyPropertyOutline, companyPropertyRules } from './company-property-catalog';
import { contactCatalog, contactPropertyOutline, contactPropertyRules } from './contact-property-catalog';
import { dealCatalog, dealPropertyOutline, dealPropertyRules } from './deal-property-catalog';
import {
  type CatalogTables,
  type StandardCatalog,
  type StandardOutline,
  type StandardRules,
  standardCatalog,
  standardOutline,
  standardRules,
} from './standard-catalog';
import { ticketCatalog, ticketPropertyOutline, ticketPropertyRules } from './ticket-property-catalog';

export type { StandardCatalog, StandardOutline, StandardRules } from './standard-catalog';

/**
 * HubSpot's standard properties and groups of each stored type: no item in the table, never changed.
 * Three views, so that a function's bundle carries the tables it reads and no more: the record
 * functions read the rules, the properties API's writes the outline (labels and groups), its reads the
 * whole catalog.
 */
const catalogs: Record<string, StandardCatalog> = {
  companies: companyCatalog,
  contacts: contactCatalog,
  deals: dealCatalog,
  tickets: ticketCatalog,
};
const outlines: Record<string, StandardOutline> = {
  companies: companyPropertyOutline,
  contacts: contactPropertyOutline,
  deals: dealPropertyOutline,
  tickets: ticketPropertyOutline,
};
const rules: Record<string, StandardRules> = {
  companies: companyPropertyRules,
  contacts: contactPropertyRules,
  deals: dealPropertyRules,
  tickets: ticketPropertyRules,
};

/** A type without a catalog of its own yet (an activity, until it is stored) has no standard properties. */
const emptyTables: CatalogTables = { rows: [], labels: {}, descriptions: {}, defaultGroup: '', groups: [] };
const emptyCatalog = /* @__PURE__ */ standardCatalog(emptyTables);
const emptyOutline = /* @__PURE__ */ standardOutline(emptyTables);
const emptyRules = /* @__PURE__ */ standardRules([]);

/** The standard properties as the properties API returns them (its reads). */
export function catalogOf(type: ObjectType): StandardCatalog {
  return catalogs[type.name] ?? emptyCatalog;
}

/** The names, labels and groups of the standard properties (the properties API's writes). */
export function standardOutlineOf(type: ObjectType): StandardOutline {
  return outlines[type.name] ?? emptyOutline;
}

/** The standard properties as the record functions check, store and search values by them. */
export function standardRulesOf(type: ObjectType): StandardRules {
  return rules[type.name] ?? emptyRules;
}
