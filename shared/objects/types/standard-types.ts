import type { ObjectType } from '../object-type';
import type { TypeRules } from '../type-rules';
import {
  callRules,
  calls,
  emailRules,
  emails,
  meetingRules,
  meetings,
  noteRules,
  notes,
  taskRules,
  tasks,
} from './activities';
import { companies, companyAssociations, companyEvents, companyRules } from './companies';
import { contactAssociations, contactEvents, contactRules, contacts } from './contacts';
import { dealAssociations, dealEvents, deals } from './deals';
import { lineItemEvents, lineItemRules, lineItems } from './line-items';
import { productEvents, productRules, products } from './products';
import type { TypeAssociations, TypeEvents } from './standard-type';
import { ticketAssociations, ticketEvents, tickets } from './tickets';

/**
 * The standard types: each is one module of this folder, and these lists (and standalone-parts.ts's)
 * name its parts, one list per part, so that a function's bundle holds only the parts it reads.
 * Every table of the service about types (the registry's lookups, the scope unions, the webhook
 * subscription types, the association types, the pipeline types, the rules, the scopes' words) is
 * derived from these lists.
 */

/** The registry's entries, in the order the service lists them (shared/objects/object-types.ts). */
export const standardTypes = [
  contacts,
  companies,
  deals,
  tickets,
  notes,
  calls,
  emails,
  meetings,
  tasks,
  products,
  lineItems,
] as const satisfies readonly ObjectType[];

/** The rules of the types that have some (shared/records/type-rules-lookup.ts). */
export const standardTypeRules: readonly (readonly [ObjectType, TypeRules])[] = [
  [companies, companyRules],
  [contacts, contactRules],
  [products, productRules],
  [lineItems, lineItemRules],
  [notes, noteRules],
  [calls, callRules],
  [emails, emailRules],
  [meetings, meetingRules],
  [tasks, taskRules],
];

/** The HubSpot-defined association types each type owns (shared/association-types/association-types.ts). */
export const standardTypeAssociations: readonly TypeAssociations[] = [
  companyAssociations,
  contactAssociations,
  dealAssociations,
  ticketAssociations,
];

/** The webhook subscription types, in the order the subscriptions API lists them (shared/webhooks/subscription-types.ts). */
export const standardTypeEvents = [
  companyEvents,
  contactEvents,
  dealEvents,
  ticketEvents,
  productEvents,
  lineItemEvents,
] as const satisfies readonly TypeEvents[];
