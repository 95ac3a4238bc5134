import type { ObjectType } from '../objects/object-types';
import { companyCatalog } from './company-property-catalog';
import { contactCatalog } from './contact-property-catalog';
import { dealCatalog } from './deal-property-catalog';
import { standardCatalog, type StandardCatalog } from './standard-catalog';
import { ticketCatalog } from './ticket-property-catalog';

export type { StandardCatalog } from './standard-catalog';

/** HubSpot's standard properties and groups of each stored type: no item in the table, never changed. */
const catalogs: Record<string, StandardCatalog> = {
  companies: companyCatalog,
  contacts: contactCatalog,
  deals: dealCatalog,
  tickets: ticketCatalog,
};

/** A type without a catalog of its own yet (an activity, until it is stored) has no standard properties. */
const empty = standardCatalog([], '', []);

export function catalogOf(type: ObjectType): StandardCatalog {
  return catalogs[type.name] ?? empty;
}
