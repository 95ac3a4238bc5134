import { callTables } from './call-property-catalog';
import { companyTables } from './company-property-catalog';
import { contactTables } from './contact-property-catalog';
import type { customObjectCatalogName } from '../objects/custom-object-types';
import type { standardTypes } from '../objects/types/standard-types';
import { customObjectTables } from './custom-object-property-catalog';
import { dealTables } from './deal-property-catalog';
import { emailTables } from './email-property-catalog';
import { lineItemTables } from './line-item-property-catalog';
import { meetingTables } from './meeting-property-catalog';
import { noteTables } from './note-property-catalog';
import { productTables } from './product-property-catalog';
import type { CatalogTables } from './standard-catalog';
import { taskTables } from './task-property-catalog';
import { ticketTables } from './ticket-property-catalog';

/**
 * The standard tables of every standard type (shared/objects/types/; a standard type without its
 * tables here fails to compile) and of custom objects, by type name, as the source holds them.
 * Tests, the local runtime and bin/build-validators.ts read this; a deployed bundle never does: it
 * reads the one type it serves from the JSON file bin/build-validators.ts writes of these tables
 * (shared/properties/standard-catalogs.ts).
 */
export const sourceCatalogTables: Readonly<Record<string, CatalogTables>> = {
  companies: companyTables,
  contacts: contactTables,
  deals: dealTables,
  tickets: ticketTables,
  products: productTables,
  line_items: lineItemTables,
  notes: noteTables,
  calls: callTables,
  emails: emailTables,
  meetings: meetingTables,
  tasks: taskTables,
  // Every custom type's system properties (custom-object-types.ts customObjectCatalogName).
  custom_objects: customObjectTables,
} satisfies Record<(typeof standardTypes)[number]['name'] | typeof customObjectCatalogName, CatalogTables>;
