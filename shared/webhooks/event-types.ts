/**
 * The subscription types this service emits: the company events of HubSpot's webhooks v3. Other
 * objects (contacts, deals, ...) do not exist here, so their types are refused rather than accepted
 * and never fired.
 */
export const webhookEventTypes = [
  'company.creation', 'company.deletion', 'company.propertyChange', 'company.associationChange', 'company.merge', 'company.restore',
] as const;

export type WebhookEventType = (typeof webhookEventTypes)[number];

export function isWebhookEventType(value: string): value is WebhookEventType {
  return (webhookEventTypes as readonly string[]).includes(value);
}

/** HubSpot refuses property-change subscriptions to these: they change on every write. */
export const unsubscribableProperties = ['hs_lastmodifieddate', 'num_unique_conversion_events'] as const;

/** At most this many subscriptions per app (HubSpot's limit and its message). */
export const maxSubscriptionsPerApp = 1000;

/** HubSpot's concurrency limit per installing account; also the highest maxConcurrentRequests. */
export const maxConcurrentRequestsLimit = 10;
