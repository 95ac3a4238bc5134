import { companyTables } from './company-property-catalog';
import { contactTables } from './contact-property-catalog';
import { dealTables } from './deal-property-catalog';
import type { CatalogTables } from './standard-catalog';
import { ticketTables } from './ticket-property-catalog';

/**
 * The standard tables of every type that has a catalog, by type name, as the source holds them.
 * Tests, the local runtime and bin/build-validators.ts read this; a deployed bundle never does: it
 * reads the one type it serves from the JSON file bin/build-validators.ts writes of these tables
 * (shared/properties/standard-catalogs.ts).
 */
export const sourceCatalogTables: Readonly<Record<string, CatalogTables>> = {
  companies: companyTables,
  contacts: contactTables,
  deals: dealTables,
  tickets: ticketTables,
};
