import type { Scope } from '../oauth/scopes';

/**
 * The subscription types this service emits: the company events of HubSpot's webhooks v3. Other
 * objects (contacts, deals, ...) do not exist here, so their types are refused rather than accepted
 * and never fired.
 */
export const webhookEventTypes = [
  'company.creation',
  'company.deletion',
  'company.propertyChange',
  'company.associationChange',
  'company.merge',
  'company.restore',
] as const;

export type WebhookEventType = (typeof webhookEventTypes)[number];

export function isWebhookEventType(value: string): value is WebhookEventType {
  return (webhookEventTypes as readonly string[]).includes(value);
}

/** The object an event type is about: `company` for `company.propertyChange`. */
export type EventObject = WebhookEventType extends `${infer Name}.${string}` ? Name : never;

/**
 * The read scopes of each event object, any one of which lets an app subscribe to its events
 * (the app must request one) and lets an install receive them (it must hold one), as HubSpot
 * delivers an object's events only to apps that can read it. A new object's events need only an
 * entry here (the type makes it required); an object without one reaches nobody.
 */
export const eventObjectReadScopes: Readonly<Record<EventObject, readonly Scope[]>> = {
  company: ['crm.objects.companies.read'],
};

/** The read scopes accepted for an event type (`company.creation`, or a subscriptionType of an event); none for an unknown object. */
export function readScopesOfEventType(eventType: string): readonly Scope[] {
  const object = eventType.slice(0, Math.max(0, eventType.indexOf('.')));
  return Object.hasOwn(eventObjectReadScopes, object) ? eventObjectReadScopes[object as EventObject] : [];
}

/** True when `scopes` (an install's grant, or an app's requested scopes) include a read scope of the event type's object. */
export function allowsEventsOf(scopes: readonly string[], eventType: string): boolean {
  return readScopesOfEventType(eventType).some((scope) => scopes.includes(scope));
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
