import type { Scope } from '../oauth/scopes';
import { objectTypeScopes } from '../objects/object-type-scopes';

/**
 * The subscription types this service emits: HubSpot's webhooks v3 types of the objects it stores
 * that have them (companies, contacts, deals, tickets, products without associationChange, line
 * items; reference/HUBSPOT-WIRE-FACTS-3.md §8), and the generic `object.*` types
 * (genericEventTypes, below), which also serve the activities (HubSpot has no `note.*` types).
 * Other objects (conversations) are refused rather than accepted and never fired.
 */
export const webhookEventTypes = [
  'company.creation',
  'company.deletion',
  'company.propertyChange',
  'company.associationChange',
  'company.merge',
  'company.restore',
  'contact.creation',
  'contact.deletion',
  'contact.propertyChange',
  'contact.associationChange',
  'contact.merge',
  'contact.restore',
  'contact.privacyDeletion',
  'deal.creation',
  'deal.deletion',
  'deal.propertyChange',
  'deal.associationChange',
  'deal.merge',
  'deal.restore',
  'ticket.creation',
  'ticket.deletion',
  'ticket.propertyChange',
  'ticket.associationChange',
  'ticket.merge',
  'ticket.restore',
  'product.creation',
  'product.deletion',
  'product.propertyChange',
  'product.merge',
  'product.restore',
  'line_item.creation',
  'line_item.deletion',
  'line_item.propertyChange',
  'line_item.associationChange',
  'line_item.merge',
  'line_item.restore',
] as const;

export type WebhookEventType = (typeof webhookEventTypes)[number];

export function isWebhookEventType(value: string): value is WebhookEventType {
  return (webhookEventTypes as readonly string[]).includes(value);
}

/**
 * HubSpot's generic subscription types: one per kind of change, for the object type the
 * subscription names in `objectTypeId`; each event carries that `objectTypeId`
 * (https://developers.hubspot.com/changelog/public-beta-generic-webhook-subscriptions). No
 * `object.privacyDeletion`: contacts alone have that kind.
 */
export const genericEventTypes = [
  'object.creation',
  'object.deletion',
  'object.propertyChange',
  'object.associationChange',
  'object.merge',
  'object.restore',
] as const;

export function isGenericEventType(value: string): value is (typeof genericEventTypes)[number] {
  return (genericEventTypes as readonly string[]).includes(value);
}

/** The object an event type is about: `company` for `company.propertyChange`. */
export type EventObject = WebhookEventType extends `${infer Name}.${string}` ? Name : never;

/** The object of an event type (`contact` for `contact.creation`), or undefined when it is none of ours. */
export function eventObjectOf(eventType: string): EventObject | undefined {
  const object = eventType.slice(0, Math.max(0, eventType.indexOf('.')));
  return Object.hasOwn(eventObjectTypeIds, object) ? (object as EventObject) : undefined;
}

/**
 * The object type id of each event object (the registry's, shared/objects/object-types.ts): what
 * a subscription's optional `objectTypeId` must name. Legacy `contact.*`, `company.*`, ...
 * deliveries do not carry it (only HubSpot's generic `object.*` ones do, which are not served).
 */
export const eventObjectTypeIds: Readonly<Record<EventObject, string>> = {
  company: '0-2',
  contact: '0-1',
  deal: '0-3',
  ticket: '0-5',
  product: '0-7',
  line_item: '0-8',
};

/**
 * The read scopes of each event object, any one of which lets an app subscribe to its events
 * (the app must request one) and lets an install receive them (it must hold one), as HubSpot
 * delivers an object's events only to apps that can read it: the object's record read scopes
 * (tickets: `tickets` or `crm.objects.tickets.read`). A new object's events need only an entry
 * here (the type makes it required); an object without one reaches nobody.
 */
export const eventObjectReadScopes: Readonly<Record<EventObject, readonly Scope[]>> = {
  company: objectTypeScopes.companies.read,
  contact: objectTypeScopes.contacts.read,
  deal: objectTypeScopes.deals.read,
  ticket: objectTypeScopes.tickets.read,
  product: objectTypeScopes.products.read,
  line_item: objectTypeScopes.line_items.read,
};

/** The read scopes accepted for an event type (`company.creation`, or a subscriptionType of an event); none for an unknown object. */
export function readScopesOfEventType(eventType: string): readonly Scope[] {
  const object = eventObjectOf(eventType);
  return object === undefined ? [] : eventObjectReadScopes[object];
}

/** HubSpot refuses property-change subscriptions to these: they change on every write. */
export const unsubscribableProperties = ['hs_lastmodifieddate', 'num_unique_conversion_events'] as const;

/** At most this many subscriptions per app (HubSpot's limit and its message). */
export const maxSubscriptionsPerApp = 1000;

/**
 * The highest maxConcurrentRequests (HubSpot's limit of 10 per installing account). The setting
 * holds for the app's target as a whole, whichever accounts the requests are for.
 */
export const maxConcurrentRequestsLimit = 10;
