/** HubSpot refuses property-change subscriptions to these: they change on every write. */
export const unsubscribableProperties = ['hs_lastmodifieddate', 'num_unique_conversion_events'] as const;

/** At most this many subscriptions per app (HubSpot's limit and its message). */
export const maxSubscriptionsPerApp = 1000;

/**
 * The highest maxConcurrentRequests (HubSpot's limit of 10 per installing account). The setting
 * holds for the app's target as a whole, whichever accounts the requests are for.
 */
export const maxConcurrentRequestsLimit = 10;
