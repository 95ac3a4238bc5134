/**
 * The bounds of the webhooks journal's subscriptions and filters (docs/webhooks-journal.md): HubSpot
 * publishes none for the 2026-03 API, so these are the service's, each keeping one request's work
 * and one item's size bounded. The request schemas hold the per-request ones; the domain the
 * per-app and per-subscription counts.
 */
export const journalLimits = {
  subscriptionsPerApp: 100,
  objectIdsPerSubscription: 100,
  propertiesPerSubscription: 100,
  listIdsPerSubscription: 100,
  associatedObjectTypeIdsPerSubscription: 20,
  filtersPerSubscription: 10,
  conditionsPerFilter: 25,
  valuesPerCondition: 100,
  /** Characters of a property name, a condition's value, an event type id. */
  textLength: 500,
} as const;

/** The types an upsert may create (HubSpot's SubscriptionUpsertRequest; `EVENT` appears only in answers). */
export const journalSubscriptionTypes = [
  'OBJECT',
  'ASSOCIATION',
  'LIST_MEMBERSHIP',
  'APP_LIFECYCLE_EVENT',
  'GDPR_PRIVACY_DELETION',
] as const;
export type JournalSubscriptionType = (typeof journalSubscriptionTypes)[number];

/** Every action of HubSpot's enum; which a type may take is the domain's check (shared/webhooks-journal/subscriptions.ts). */
export const journalActions = [
  'CREATE',
  'UPDATE',
  'DELETE',
  'MERGE',
  'RESTORE',
  'ASSOCIATION_ADDED',
  'ASSOCIATION_REMOVED',
  'SNAPSHOT',
  'APP_INSTALL',
  'APP_UNINSTALL',
  'ADDED_TO_LIST',
  'REMOVED_FROM_LIST',
  'GDPR_DELETE',
] as const;

/** HubSpot's filter operators on a CRM_OBJECT_PROPERTY condition, by the value they compare with. */
export const singleValueOperators = [
  'EQ',
  'N_EQ',
  'LT',
  'GT',
  'LTE',
  'GTE',
  'CONTAINS',
  'STARTS_WITH',
  'ENDS_WITH',
] as const;
export const multiValueOperators = ['IN', 'NOT_IN'] as const;
export const noValueOperators = ['IS_EMPTY', 'IS_NOT_EMPTY'] as const;
export const filterOperators = [...singleValueOperators, ...multiValueOperators, ...noValueOperators] as const;

/** The object type a LIST_MEMBERSHIP subscription answers (the answer requires one; lists are object type 0-45). */
export const listsObjectTypeId = '0-45';

/** How long the journal keeps an entry (HubSpot: "the past 3 days"), and the data stack's journal bucket a file. */
export const journalRetentionDays = 3;
