import { standardTypeEvents } from '#standard-types';
import type { Scope } from '../oauth/scopes';
import type { ChangeKind, TypeEvents } from '../objects/standard-type';

export { maxConcurrentRequestsLimit, maxSubscriptionsPerApp, unsubscribableProperties } from './subscription-limits';

/**
 * The subscription types of these types' events, in their order: `<singular>.<kind>` for each kind
 * a type has; the object type id of each event object (what a subscription's optional `objectTypeId`
 * must name); and the read scopes of each, any one of which lets an app subscribe to its events (the
 * app must request one) and lets an install receive them (it must hold one), as HubSpot delivers an
 * object's events only to apps that can read it.
 */
export function eventTablesOf(events: readonly TypeEvents[]) {
  return {
    eventTypes: events.flatMap(({ type, kinds }) => kinds.map((kind) => `${type.singular}.${kind}`)),
    objectTypeIds: Object.fromEntries(events.map(({ type }) => [type.singular, type.id])),
    readScopes: Object.fromEntries(events.map(({ type }) => [type.singular, type.scopes.read])),
  };
}

/** The object an event type is about: `company` for `company.propertyChange` (a type's singular name). */
export type EventObject = string;

/** A subscription type of a type's events: `<singular>.<kind>`. */
export type WebhookEventType = `${EventObject}.${ChangeKind}`;

let standardTables: ReturnType<typeof eventTablesOf> | undefined;
/** The standard types' tables, built on first use. */
const tables = () => {
  standardTables ??= eventTablesOf(standardTypeEvents);
  return standardTables;
};

/**
 * The subscription types this service emits: HubSpot's webhooks v3 types of the objects it stores
 * that have them (reference/HUBSPOT-WIRE-FACTS-3.md §8; the types' modules, shared/objects/types/),
 * and the generic `object.*` types (genericEventTypes, below), which also serve the activities
 * (HubSpot has no `note.*` types). Other objects (conversations) are refused rather than accepted
 * and never fired.
 */
export const webhookEventTypes = (): readonly WebhookEventType[] => tables().eventTypes as WebhookEventType[];

export function isWebhookEventType(value: string): value is WebhookEventType {
  return (webhookEventTypes() as readonly string[]).includes(value);
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

/** The object of an event type (`contact` for `contact.creation`), or undefined when it is none of ours. */
export function eventObjectOf(eventType: string): EventObject | undefined {
  const object = eventType.slice(0, Math.max(0, eventType.indexOf('.')));
  return Object.hasOwn(eventObjectTypeIds(), object) ? (object as EventObject) : undefined;
}

/**
 * The object type id of each event object (the registry's, shared/objects/object-types.ts). Legacy
 * `contact.*`, `company.*`, ... deliveries do not carry it (only HubSpot's generic `object.*` ones
 * do, which are not served).
 */
export const eventObjectTypeIds = (): Readonly<Record<EventObject, string>> =>
  tables().objectTypeIds as Record<EventObject, string>;

/** The read scopes of each event object (its type's record read scopes; tickets: `tickets` or `crm.objects.tickets.read`). */
export const eventObjectReadScopes = (): Readonly<Record<EventObject, readonly Scope[]>> =>
  tables().readScopes as Record<EventObject, readonly Scope[]>;

/** The read scopes accepted for an event type (`company.creation`, or a subscriptionType of an event); none for an unknown object. */
export function readScopesOfEventType(eventType: string): readonly Scope[] {
  const object = eventObjectOf(eventType);
  return object === undefined ? [] : (eventObjectReadScopes()[object] ?? []);
}
