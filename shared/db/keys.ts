/**
 * Every key format of the single table. Only the repositories in shared/db import this.
 * Hub-owned records share the partition HUB#<hubId>, so tenancy is part of every key.
 */
export interface Key {
  pk: string;
  sk: string;
}

export const counterKey = (name: string): Key => ({ pk: 'COUNTER', sk: name });

// Apps: looked up by client id (authorize, token).
export const appByClientKey = (clientId: string): Key => ({ pk: `CLIENT#${clientId}`, sk: 'APP' });

// Developer accounts own apps; their API key is found by its SHA-256 hash (hex) and lists the apps it manages.
export const developerKey = (developerId: number): Key => ({ pk: `DEVELOPER#${developerId}`, sk: 'DEVELOPER' });
export const developerApiKeyKey = (apiKeyHash: string): Key => ({ pk: `DEVKEY#${apiKeyHash}`, sk: 'DEVKEY' });
/** A test account a developer account created (the sandbox controls): listed in the developer's partition, in hub id order. */
export const testAccountPrefix = 'TEST_ACCOUNT#';
export const testAccountKey = (developerId: number, hubId: number): Key => ({
  pk: `DEVELOPER#${developerId}`,
  sk: `${testAccountPrefix}${String(hubId).padStart(15, '0')}`,
});

/** The partition of everything a hub (account) owns: its account, installs, CRM records and settings. */
export const hubPartition = (hubId: number): string => `HUB#${hubId}`;
export const accountKey = (hubId: number): Key => ({ pk: hubPartition(hubId), sk: 'ACCOUNT' });
export const installKey = (hubId: number, appId: number): Key => ({ pk: hubPartition(hubId), sk: `INSTALL#${appId}` });
export const installPrefix = 'INSTALL#';

export const userKey = (email: string): Key => ({ pk: `USER#${email}`, sk: 'USER' });
export const loginAttemptsKey = (email: string): Key => ({ pk: `LOGIN#${email}`, sk: 'LOGIN' });

// OAuth secrets are stored only as SHA-256 hashes (hex).
export const authCodeKey = (codeHash: string): Key => ({ pk: `CODE#${codeHash}`, sk: 'CODE' });
export const usedCodeKey = (codeHash: string): Key => ({ pk: `USEDCODE#${codeHash}`, sk: 'USEDCODE' });
export const refreshTokenKey = (tokenHash: string): Key => ({ pk: `REFRESH#${tokenHash}`, sk: 'REFRESH' });
export const grantKey = (grantId: string): Key => ({ pk: `GRANT#${grantId}`, sk: 'GRANT' });
/** What an app token (client credentials) was issued for; among the grants, so the token routes read it as they do them. */
export const appGrantKey = (grantId: string): Key => ({ pk: `GRANT#${grantId}`, sk: 'APP_GRANT' });
/**
 * Whether the install of an app in an account still stands, read by every access-token check (through
 * a per-instance cache): in a partition of its own, so a function may read it without being granted
 * the account's records. Absent until the install is first ended or a grant of it revoked.
 */
export const installStateKey = (hubId: number, appId: number): Key => ({
  pk: `INSTALL_STATE#${hubId}#${appId}`,
  sk: 'INSTALL_STATE',
});

// Legacy timeline. An event type lives in its app's partition, next to its properties and one claim
// per property name (uniqueness); the trailing '#' keeps type 1's prefix from matching type 12.
export const timelineTypePrefix = (eventTypeId: number): string => `TIMELINE_TYPE#${eventTypeId}#`;
export const timelineTypesPrefix = 'TIMELINE_TYPE#';
export const appPartition = (appId: number): string => `APP#${appId}`;
export const timelineEventTypeKey = (appId: number, eventTypeId: number): Key => ({
  pk: appPartition(appId),
  sk: `${timelineTypePrefix(eventTypeId)}TYPE`,
});
export const timelinePropertyKey = (appId: number, eventTypeId: number, propertyId: number): Key => ({
  pk: appPartition(appId),
  sk: `${timelineTypePrefix(eventTypeId)}PROPERTY#${propertyId}`,
});
export const timelinePropertyNameKey = (appId: number, eventTypeId: number, name: string): Key => ({
  pk: appPartition(appId),
  sk: `${timelineTypePrefix(eventTypeId)}PROPERTY_NAME#${name}`,
});
// Event ids are unique per event type within one account (hub): another account may use the same id,
// and cannot learn that one is taken. hubId and eventTypeId are digits only, so the '#' separators
// stay unambiguous whatever the caller-chosen eventId holds. One partition per event spreads the writes.
export const timelineEventKey = (hubId: number, eventTypeId: number, eventId: string): Key => ({
  pk: `TIMELINE_EVENT#${hubId}#${eventTypeId}#${eventId}`,
  sk: 'EVENT',
});
/**
 * A test account's events are also listed in its hub partition (keys only, one item per event), so
 * a purge of the account (shared/db/account-purge.ts) can find them: the events themselves, one
 * partition each, cannot be enumerated per account. Other accounts' events are not listed.
 */
export const timelineEventListingPrefix = 'TIMELINE_EVENT#';
export const timelineEventListingKey = (hubId: number, eventTypeId: number, eventId: string): Key => ({
  pk: hubPartition(hubId),
  sk: `${timelineEventListingPrefix}${eventTypeId}#${eventId}`,
});
/** The event a listing item's sort key names (the type id is digits, the event id the rest, '#' included), or undefined. */
export function timelineEventListedBy(hubId: number, listingSk: string): Key | undefined {
  if (!listingSk.startsWith(timelineEventListingPrefix)) return undefined;
  const rest = listingSk.slice(timelineEventListingPrefix.length);
  const separator = rest.indexOf('#');
  const eventTypeId = rest.slice(0, Math.max(0, separator));
  if (!/^[0-9]{1,15}$/.test(eventTypeId) || separator === rest.length - 1) return undefined;
  return timelineEventKey(hubId, Number(eventTypeId), rest.slice(separator + 1));
}

// CRM records of a hub, by object type. Record ids are fixed-width numeric strings, so the sort key
// orders them. Every type's keys are built from its entry (shared/objects/object-types.ts): its key
// prefix, and its search tag where its keys carry its id.
/** What a key needs of an object type (an entry of shared/objects/object-types.ts). */
export interface KeyedType {
  /** The type id (`0-1`). */
  id: string;
  /** The plural name (`contacts`): property definitions and groups are filed under it. */
  name: string;
  /** The record keys' prefix (`CONTACT`). */
  keyPrefix: string;
  /**
   * Between `SEARCH#` and the shard in the search projection's partition: `<id>#`, or '' for a type
   * whose keys carry no type id (companies), in its association edge keys neither (associationEdgePrefix).
   */
  searchTag: string;
}
export const recordKey = (type: Pick<KeyedType, 'keyPrefix'>, hubId: number, id: string): Key => ({
  pk: hubPartition(hubId),
  sk: `${type.keyPrefix}#${id}`,
});
/** Archived records move here, so listing active ones stays one Query without a filter. */
export const archivedRecordKey = (type: KeyedType, hubId: number, id: string): Key => ({
  pk: hubPartition(hubId),
  sk: `ARCHIVED_${type.keyPrefix}#${id}`,
});
/**
 * The record a stream record's key addresses (active or archived item), by its key prefix, or
 * undefined for any item that cannot be a record. The caller checks the prefix is a stored type's
 * (other items, owners say, have keys of the same form).
 */
export function recordAddressedBy(key: {
  pk?: unknown;
  sk?: unknown;
}): { hubId: number; keyPrefix: string; id: string; isArchived: boolean } | undefined {
  if (typeof key.pk !== 'string' || typeof key.sk !== 'string') return undefined;
  const hub = /^HUB#([0-9]{1,15})$/.exec(key.pk);
  const record = /^(ARCHIVED_)?([A-Z]{1,30})#([0-9]{1,30})$/.exec(key.sk);
  if (!hub?.[1] || !record?.[2] || !record[3]) return undefined;
  return { hubId: Number(hub[1]), keyPrefix: record[2], id: record[3], isArchived: record[1] !== undefined };
}
export const recordListPrefix = (type: KeyedType, isArchived: boolean): string =>
  isArchived ? `ARCHIVED_${type.keyPrefix}#` : `${type.keyPrefix}#`;
/** What a record id merged away points to: the id of the record that holds the merge's result. */
export const mergedRecordKey = (type: KeyedType, hubId: number, id: string): Key => ({
  pk: hubPartition(hubId),
  sk: `${type.keyPrefix}_MERGED#${id}`,
});
/** One item per unique value (companies' domains, contacts' emails, hasUniqueValue properties), written with the record. */
export const uniqueValueKey = (type: KeyedType, hubId: number, propertyName: string, value: string): Key => ({
  pk: hubPartition(hubId),
  sk: `${type.keyPrefix}_UNIQUE#${propertyName}#${value}`,
});
/**
 * The name a type's property definitions and groups are filed under: its plural name, or a custom
 * type's id (`2-<n>`): a custom type's name can be taken again once its schema is deleted for good,
 * its id never is.
 */
const catalogKeyName = (type: KeyedType): string => (/^2-/.test(type.id) ? type.id : type.name);
export const propertyPrefix = (type: KeyedType): string => `PROPERTY#${catalogKeyName(type)}#`;
export const propertyKey = (type: KeyedType, hubId: number, propertyName: string): Key => ({
  pk: hubPartition(hubId),
  sk: `${propertyPrefix(type)}${propertyName}`,
});
/**
 * The claim of a custom property label per type: one item per label as labels are compared
 * (`labelDigest`: a digest of the trimmed, lower-cased label, since a label may be longer than a sort key).
 */
export const propertyLabelPrefix = (type: KeyedType): string => `PROPERTY_LABEL#${catalogKeyName(type)}#`;
export const propertyLabelKey = (type: KeyedType, hubId: number, labelDigest: string): Key => ({
  pk: hubPartition(hubId),
  sk: `${propertyLabelPrefix(type)}${labelDigest}`,
});
// Custom association labels: listed per object pair, and found by type id alone when a create names only the id.
export const associationLabelKey = (hubId: number, fromTypeId: string, toTypeId: string, typeId: number): Key => ({
  pk: hubPartition(hubId),
  sk: `ASSOC_LABEL#${fromTypeId}#${toTypeId}#${typeId}`,
});
export const associationLabelPrefix = (fromTypeId: string, toTypeId: string): string =>
  `ASSOC_LABEL#${fromTypeId}#${toTypeId}#`;
export const associationTypeKey = (hubId: number, typeId: number): Key => ({
  pk: hubPartition(hubId),
  sk: `ASSOC_TYPE#${typeId}`,
});
export const associationLabelNamesPrefix = 'ASSOC_LABEL_NAMES#';
/** The names of the live custom labels listed for one object pair (a string set): its condition holds the per-pair cap and name uniqueness. */
export const associationLabelNamesKey = (hubId: number, fromTypeId: string, toTypeId: string): Key => ({
  pk: hubPartition(hubId),
  sk: `${associationLabelNamesPrefix}${fromTypeId}#${toTypeId}`,
});
/** The account's association limit configurations, all in one item (shared/db/association-limits.ts): one read per association write. */
export const associationLimitsKey = (hubId: number): Key => ({ pk: hubPartition(hubId), sk: 'ASSOC_LIMITS' });
// Custom object schemas of a hub (the schemas API): one item per schema, and one claim per name (lower case) naming its id.
export const objectSchemaPrefix = 'OBJECT_SCHEMA#';
export const objectSchemaKey = (hubId: number, schemaId: string): Key => ({
  pk: hubPartition(hubId),
  sk: `${objectSchemaPrefix}${schemaId}`,
});
export const objectSchemaNameKey = (hubId: number, name: string): Key => ({
  pk: hubPartition(hubId),
  sk: `OBJECT_SCHEMA_NAME#${name.toLowerCase()}`,
});
export const hubCounterKey = (hubId: number, name: string): Key => ({ pk: hubPartition(hubId), sk: `COUNTER#${name}` });
/**
 * Faults injected into a test account's API calls (the sandbox controls): in a partition of their
 * own, so every function that takes access tokens may read them without being granted the
 * account's records. Ids are random; one item per fault, its remaining count decremented on condition,
 * and one count item that every create and removal of a fault changes in its own transaction.
 */
export const faultsPartition = (hubId: number): string => `FAULTS#${hubId}`;
export const faultPrefix = 'FAULT#';
export const faultKey = (hubId: number, faultId: string): Key => ({
  pk: faultsPartition(hubId),
  sk: `${faultPrefix}${faultId}`,
});
/** How many fault items the account holds (spent ones included until a create reclaims them): the cap's count. */
export const faultCountKey = (hubId: number): Key => ({ pk: faultsPartition(hubId), sk: 'FAULT_COUNT' });
/**
 * The write hold of a test account that a reset or delete is purging (shared/db/write-guard.ts): one
 * item per shard, all present while it holds. Every write a test account's caller makes carries a
 * ConditionCheck that one shard (chosen at random, so concurrent writers rarely share an item) does
 * not exist; the gate that looks for faults reads the whole partition, so it sees the hold too.
 */
export const writeHoldShards = 16;
export const writeHoldPrefix = 'WRITE_HOLD#';
export const writeHoldKey = (hubId: number, shard: number): Key => ({
  pk: faultsPartition(hubId),
  sk: `${writeHoldPrefix}${shard}`,
});
/**
 * Webhook batches of a test account waiting for delivery (queued or being retried), so the sandbox
 * controls' flush can find and deliver them at once: one item per queued batch.
 */
export const webhookPendingPartition = (hubId: number): string => `WEBHOOK_PENDING#${hubId}`;
export const webhookPendingPrefix = 'BATCH#';
/** One queued batch of a test account; the id is derived from the batch (shared/webhooks/pending-batches.ts). */
export const webhookPendingKey = (hubId: number, pendingId: string): Key => ({
  pk: webhookPendingPartition(hubId),
  sk: `${webhookPendingPrefix}${pendingId}`,
});
/**
 * The flushes of the account running now (a count, and when the latest one ends at the latest):
 * while one runs, a deliverer that finishes a pending batch leaves its outcome for it to read.
 */
export const webhookFlushKey = (hubId: number): Key => ({ pk: webhookPendingPartition(hubId), sk: 'FLUSHING' });
// Rate limiter state: one small item per limited subject (an install, or an account for search).
export const rateLimitKey = (policy: string, subject: string): Key => ({
  pk: `LIMIT#${policy}#${subject}`,
  sk: 'LIMIT',
});

/**
 * The reverse side of a stored record's association with a record this service does not store (a
 * note, a call, ...): one item per pair, so "the contacts of note 5" is one Query. The stored
 * record (the holder) stays the truth. The key is `ASSOC_EDGE#<type>#<id>@<holderTypeId>#<holderId>`,
 * or `ASSOC_EDGE#<type>#<id>#<holderId>` for a holder type whose keys carry no type id (its search
 * tag is ''): no prefix of one holder type's matches another's, and the trailing '#' keeps object
 * 1's prefix from matching object 12.
 */
export const associationEdgePrefix = (holder: KeyedType, objectTypeId: string, objectId: string): string =>
  `ASSOC_EDGE#${objectTypeId}#${objectId}${holder.searchTag === '' ? '' : `@${holder.id}`}#`;
export const associationEdgeKey = (
  hubId: number,
  holder: KeyedType,
  objectTypeId: string,
  objectId: string,
  holderId: string,
): Key => ({
  pk: `HUB#${hubId}`,
  sk: `${associationEdgePrefix(holder, objectTypeId, objectId)}${holderId}`,
});
export const propertyGroupPrefix = (type: KeyedType): string => `PROPERTY_GROUP#${catalogKeyName(type)}#`;
export const propertyGroupKey = (type: KeyedType, hubId: number, groupName: string): Key => ({
  pk: hubPartition(hubId),
  sk: `${propertyGroupPrefix(type)}${groupName}`,
});
/**
 * The search projection of active companies: one compact item per company, in a partition of its
 * own per hub and shard (so a search reads only projection items and spreads over several
 * partitions). The shard follows from the id, so every write knows where the item lives.
 * 16 shards keep a 100k-company account at about 6,250 items a partition, read by 16 Query
 * chains. Changing the count moves items: `npm run admin -- search backfill` rewrites each
 * company's item in its new shard and removes the old one (README, Search design notes); the
 * count only grows (the backfill sweeps shards 0 to count - 1).
 */
export const searchShards = 16;
export const searchShardOf = (id: string): number => Number(id.slice(-3)) % searchShards;
export const searchPartition = (type: Pick<KeyedType, 'searchTag'>, hubId: number, shard: number): string =>
  `${hubPartition(hubId)}#SEARCH#${type.searchTag}${shard}`;
export const searchKey = (type: KeyedType, hubId: number, id: string): Key => ({
  pk: searchPartition(type, hubId, searchShardOf(id)),
  sk: id,
});

/**
 * The ordered index of a type's active records (keys only), one per order a search pages by: `c`
 * the create date, `m` the modified date. One item per record and order, in the record's shard
 * (searchShardOf), sort key `<sortable form of the instant>#<id>`: the form is the one a search
 * compares (shared/records/search-forms.ts sortableNumber), so a range filter's bounds are sort-key
 * bounds, and ties order by id as the search does. Written in the record's own transaction.
 */
export type OrderIndexKind = 'c' | 'm';
export const orderIndexPartition = (
  type: Pick<KeyedType, 'id'>,
  hubId: number,
  kind: OrderIndexKind,
  shard: number,
): string => `${hubPartition(hubId)}#ORDER#${type.id}#${kind}#${shard}`;
export const orderIndexKey = (type: KeyedType, hubId: number, kind: OrderIndexKind, form: string, id: string): Key => ({
  pk: orderIndexPartition(type, hubId, kind, searchShardOf(id)),
  sk: `${form}#${id}`,
});
/** How many active records of a type a hub holds, one counter per search shard (the shard of the ids it counts). */
export const recordCountPrefix = 'RECORD_COUNT#';
export const recordCountKey = (type: KeyedType, hubId: number, shard: number): Key => ({
  pk: hubPartition(hubId),
  sk: `${recordCountPrefix}${type.id}#${shard}`,
});

// Webhooks of an app: its settings, its subscriptions (with a count item that caps them) and its
// recent delivery attempts, all in the app's partition; attempts expire by TTL.
export const webhookSettingsKey = (appId: number): Key => ({ pk: appPartition(appId), sk: 'WEBHOOK_SETTINGS' });
export const webhookSubscriptionCountKey = (appId: number): Key => ({
  pk: appPartition(appId),
  sk: 'WEBHOOK_SUBSCRIPTION_COUNT',
});
export const webhookSubscriptionPrefix = 'WEBHOOK_SUBSCRIPTION#';
export const webhookSubscriptionKey = (appId: number, subscriptionId: number): Key => ({
  pk: appPartition(appId),
  sk: `${webhookSubscriptionPrefix}${subscriptionId}`,
});
/** One per (event type, property) of an app, written with the subscription: no two subscriptions of an app are the same. */
export const webhookSubscriptionClaimKey = (
  appId: number,
  eventType: string,
  propertyName: string | undefined,
): Key => ({ pk: appPartition(appId), sk: `WEBHOOK_SUBSCRIPTION_TYPE#${eventType}#${propertyName ?? ''}` });
/** Any item of an app's webhook configuration (settings, subscriptions, their count): one Query reads them all. */
export const webhookConfigPrefix = 'WEBHOOK_S';
export const webhookDeliveryPrefix = 'WEBHOOK_DELIVERY#';
/** The app's client secret, sealed (shared/webhooks/client-secret-seal.ts): what deliveries are signed with. */
export const appSigningSecretKey = (appId: number): Key => ({ pk: appPartition(appId), sk: 'SIGNING_SECRET' });
/** The scopes an app requests (required and optional), by app id: a webhook subscription needs the read scope of its object. */
export const appRequestedScopesKey = (appId: number): Key => ({ pk: appPartition(appId), sk: 'REQUESTED_SCOPES' });
/**
 * The requests in flight to one app's target, whichever accounts they are for (HubSpot's
 * maxConcurrentRequests is per app): one attribute per place, holding its lease expiry.
 */
export const webhookInFlightKey = (appId: number): Key => ({ pk: appPartition(appId), sk: 'WEBHOOK_INFLIGHT' });
/** Newest last: the sort key starts with the attempt's epoch ms, zero-padded, then a random id against collisions. */
export const webhookDeliveryKey = (appId: number, attemptedAtMs: number, attemptId: string): Key => ({
  pk: appPartition(appId),
  sk: `${webhookDeliveryPrefix}${String(attemptedAtMs).padStart(15, '0')}#${attemptId}`,
});

// The webhooks journal of an app (2026-03): its subscriptions (a count item caps them, a claim per
// upsert key makes an upsert find the one it updates) and their filters, in the app's partition.
// The prefixes are apart from the webhooks' (`WEBHOOK_S`), so neither Query reads the other's items.
export const journalSubscriptionPrefix = 'JOURNAL_SUB#';
export const journalSubscriptionKey = (appId: number, subscriptionId: number): Key => ({
  pk: appPartition(appId),
  sk: `${journalSubscriptionPrefix}${subscriptionId}`,
});
export const journalSubscriptionCountKey = (appId: number): Key => ({
  pk: appPartition(appId),
  sk: 'JOURNAL_SUB_COUNT',
});
/** One per upsert key of an app (type, object type, account; an app lifecycle subscription's event type): holds the subscription's id. */
export const journalSubscriptionClaimKey = (appId: number, upsertKey: string): Key => ({
  pk: appPartition(appId),
  sk: `JOURNAL_SUB_KEY#${upsertKey}`,
});
export const journalFilterKey = (appId: number, filterId: number): Key => ({
  pk: appPartition(appId),
  sk: `JOURNAL_FILTER#${filterId}`,
});

// The webhooks journal's entries (shared/db/webhooks-journal-entries.ts): a partition per app, the
// sort key the entry's offset (a UUID whose hex order is commit order: journal-offsets.ts), and the
// same entry again in a partition per app and install, so that a read of one install's entries is a
// Query of its own partition.
export const journalEntryPartition = (appId: number): string => `JOURNAL#${appId}`;
export const journalInstallEntryPartition = (appId: number, portalId: number): string => `JOURNAL#${appId}#${portalId}`;
export const journalEntryKey = (appId: number, offset: string): Key => ({
  pk: journalEntryPartition(appId),
  sk: offset,
});
export const journalInstallEntryKey = (appId: number, portalId: number, offset: string): Key => ({
  pk: journalInstallEntryPartition(appId, portalId),
  sk: offset,
});

// Owners: each user of an account is an owner of it (shared/db/owners.ts). Owner ids come from one
// global sequence, zero-padded in the key so that a Query pages an account's owners in id order;
// the user's pointer finds its owner for `idProperty=userId` ('OWNER#' is no prefix of 'OWNER_OF_USER#').
export const ownerPrefix = 'OWNER#';
export const ownerKey = (hubId: number, ownerId: number): Key => ({
  pk: hubPartition(hubId),
  sk: `${ownerPrefix}${String(ownerId).padStart(15, '0')}`,
});
export const ownerOfUserPrefix = 'OWNER_OF_USER#';
export const ownerOfUserKey = (hubId: number, userId: number): Key => ({
  pk: hubPartition(hubId),
  sk: `${ownerOfUserPrefix}${userId}`,
});

/**
 * Pipelines of an object type (deals 0-3, tickets 0-5) in an account: one item per pipeline, its stages
 * inside; never deleted (archiving marks it). None exist until the type's first change, which writes
 * the defaults with the type's count item (shared/db/pipelines.ts). Ids hold no '#' (the domain
 * refuses them), so the trailing '#' keeps pipeline 1's prefix from matching pipeline 12.
 */
export const pipelinePrefix = (objectTypeId: string): string => `PIPELINE#${objectTypeId}#`;
export const pipelineKey = (hubId: number, objectTypeId: string, pipelineId: string): Key => ({
  pk: hubPartition(hubId),
  sk: `${pipelinePrefix(objectTypeId)}${pipelineId}`,
});
/**
 * An account's write validation of one object type (the rules 2026-09 writes are checked against,
 * shared/records/write-validation.ts): one item per type, read with one GetItem per write request.
 */
export const writeValidationKey = (hubId: number, objectTypeId: string): Key => ({
  pk: hubPartition(hubId),
  sk: `WRITE_VALIDATION#${objectTypeId}`,
});
export const pipelineCountKey = (hubId: number, objectTypeId: string): Key => ({
  pk: hubPartition(hubId),
  sk: `PIPELINE_COUNT#${objectTypeId}`,
});
/**
 * Audit entries, newest first: a pipeline's by the pipeline revision each change wrote (exact order,
 * whatever the clocks); a stage id's, which may span pipelines, by the time, then that revision.
 * Both count down (revisions from 10^12, milliseconds from the year 2286), then a random id.
 */
export const pipelineAuditPrefix = (objectTypeId: string, pipelineId: string): string =>
  `PIPELINE_AUDIT#${objectTypeId}#${pipelineId}#`;
export const stageAuditPrefix = (objectTypeId: string, stageId: string): string =>
  `STAGE_AUDIT#${objectTypeId}#${stageId}#`;
const countDown = (value: number, digits: number): string => String(10 ** digits - 1 - value).padStart(digits, '0');
export const pipelineAuditKey = (
  hubId: number,
  objectTypeId: string,
  pipelineId: string,
  revision: number,
  entryId: string,
): Key => ({
  pk: hubPartition(hubId),
  sk: `${pipelineAuditPrefix(objectTypeId, pipelineId)}${countDown(revision, 12)}#${entryId}`,
});
export const stageAuditKey = (
  hubId: number,
  objectTypeId: string,
  stageId: string,
  atMs: number,
  revision: number,
  entryId: string,
): Key => ({
  pk: hubPartition(hubId),
  sk: `${stageAuditPrefix(objectTypeId, stageId)}${countDown(atMs, 13)}#${countDown(revision, 12)}#${entryId}`,
});

/**
 * Records near or at their association limit (shared/limits-tracking/association-limit-tracker.ts,
 * fed by the table's stream): one marker per record and to-type, filed by level (`NEAR` or `AT`) so
 * each level's samples are one Query, and one totals item per type pair. A partition of their own, so
 * the stream consumer writes nowhere else.
 */
export const associationLimitPartition = (hubId: number): string => `ASSOC_LIMIT#${hubId}`;
export type AssociationLimitLevel = 'NEAR' | 'AT';
export const associationLimitTotalsPrefix = (fromObjectTypeId?: string): string =>
  fromObjectTypeId === undefined ? 'TOTALS#' : `TOTALS#${fromObjectTypeId}#`;
export const associationLimitTotalsKey = (hubId: number, fromObjectTypeId: string, toObjectTypeId: string): Key => ({
  pk: associationLimitPartition(hubId),
  sk: `${associationLimitTotalsPrefix(fromObjectTypeId)}${toObjectTypeId}`,
});
export const associationLimitMarkerPrefix = (
  fromObjectTypeId: string,
  toObjectTypeId: string,
  level: AssociationLimitLevel,
): string => `MARKER#${fromObjectTypeId}#${toObjectTypeId}#${level}#`;
export const associationLimitMarkerKey = (
  hubId: number,
  fromObjectTypeId: string,
  toObjectTypeId: string,
  level: AssociationLimitLevel,
  recordId: string,
): Key => ({
  pk: associationLimitPartition(hubId),
  sk: `${associationLimitMarkerPrefix(fromObjectTypeId, toObjectTypeId, level)}${recordId}`,
});

/**
 * Lists (shared/db/lists.ts). A list is an item of the account's partition, ids from one sequence
 * for every account, zero-padded so a Query pages the account's lists in id order; one claim per name
 * (a digest of the lower-cased name, names being unique in the account whatever their case) names
 * the list that holds it. A list's memberships live in a partition of the list's own, two items a
 * member: `R#<recordId>` (pages by record id; record ids are fixed width, so the sort key orders
 * them) and `J#<joined ms>#<recordId>` (pages by join order); and one reverse item per membership
 * in the account's partition, `LIST_OF#<typeId>#<recordId>#<listId>`, so a record's lists are one
 * Query. Every key follows from the list id, the record id and the join time the reverse item holds.
 * A deleted list has a marker in the account's partition, `LIST_DELETED#<deleted ms>#<listId>`, so
 * the lists deleted longest ago (those past restoring, to purge) are the first of one Query.
 */
export const listPrefix = 'LIST#';
const paddedListId = (listId: string): string => listId.padStart(12, '0');
export const listKey = (hubId: number, listId: string): Key => ({
  pk: hubPartition(hubId),
  sk: `${listPrefix}${paddedListId(listId)}`,
});
export const listNameKey = (hubId: number, nameDigest: string): Key => ({
  pk: hubPartition(hubId),
  sk: `LIST_NAME#${nameDigest}`,
});
export const listMembersPartition = (hubId: number, listId: string): string =>
  `${hubPartition(hubId)}#LIST#${paddedListId(listId)}`;
export const listMemberPrefix = 'R#';
export const listJoinPrefix = 'J#';
export const listMemberKey = (hubId: number, listId: string, recordId: string): Key => ({
  pk: listMembersPartition(hubId, listId),
  sk: `${listMemberPrefix}${recordId}`,
});
/** The join-order form of a membership: `<joined ms, 13 digits>#<recordId>`. */
export const listJoinForm = (joinedAtMs: number, recordId: string): string =>
  `${String(joinedAtMs).padStart(13, '0')}#${recordId}`;
export const listJoinKey = (hubId: number, listId: string, joinedAtMs: number, recordId: string): Key => ({
  pk: listMembersPartition(hubId, listId),
  sk: `${listJoinPrefix}${listJoinForm(joinedAtMs, recordId)}`,
});
/**
 * The account's list folders (shared/db/list-folders.ts): one item holding the whole tree, each
 * folder an attribute `F<folderId>` and the ids of the lists in it a number set `L<folderId>`, so a
 * change of the tree is one conditional write and the tree one read.
 */
export const listFoldersKey = (hubId: number): Key => ({ pk: hubPartition(hubId), sk: 'LIST_FOLDERS' });
export const deletedListPrefix = 'LIST_DELETED#';
export const deletedListKey = (hubId: number, deletedAtMs: number, listId: string): Key => ({
  pk: hubPartition(hubId),
  sk: `${deletedListPrefix}${String(deletedAtMs).padStart(13, '0')}#${paddedListId(listId)}`,
});
/** What every reverse item's sort key begins with (the stream filter of the webhook event function names it). */
export const recordListsItemPrefix = 'LIST_OF#';
export const recordListsPrefix = (objectTypeId: string, recordId: string): string =>
  `${recordListsItemPrefix}${objectTypeId}#${recordId}#`;
export const recordListKey = (hubId: number, objectTypeId: string, recordId: string, listId: string): Key => ({
  pk: hubPartition(hubId),
  sk: `${recordListsPrefix(objectTypeId, recordId)}${paddedListId(listId)}`,
});
/** The membership a reverse item's key names, or undefined for any other key. */
export function recordListAddressedBy(key: {
  pk?: unknown;
  sk?: unknown;
}): { hubId: number; objectTypeId: string; recordId: string; listId: string } | undefined {
  if (typeof key.pk !== 'string' || typeof key.sk !== 'string') return undefined;
  const hub = /^HUB#([0-9]{1,15})$/.exec(key.pk);
  const membership = /^LIST_OF#([0-9]{1,4}-[0-9]{1,15})#([0-9]{1,30})#([0-9]{12})$/.exec(key.sk);
  if (!hub?.[1] || !membership?.[1] || !membership[2] || !membership[3]) return undefined;
  return {
    hubId: Number(hub[1]),
    objectTypeId: membership[1],
    recordId: membership[2],
    listId: membership[3].replace(/^0+(?=[0-9])/, ''),
  };
}

/**
 * The DYNAMIC lists of each object type, as one Query of the account's partition
 * (`DYNAMIC_LIST#<typeId>#<listId>`, each with its compiled filters): what a record write of the
 * type reads (through a short cache, shared/lists/dynamic-lists.ts) to know the lists whose
 * memberships it changes.
 */
export const dynamicListsPrefix = (objectTypeId: string): string => `DYNAMIC_LIST#${objectTypeId}#`;
export const dynamicListKey = (hubId: number, objectTypeId: string, listId: string): Key => ({
  pk: hubPartition(hubId),
  sk: `${dynamicListsPrefix(objectTypeId)}${paddedListId(listId)}`,
});
/**
 * A DYNAMIC or SNAPSHOT list's size is its item's `size` (API membership changes) plus its size
 * counters (`SIZE#<shard>` in the list's member partition), which the record writes and the
 * evaluation job move: one counter a transaction, so concurrent writes of one list rarely share one.
 */
export const listSizePrefix = 'SIZE#';
export const listSizeKey = (hubId: number, listId: string, shard: number): Key => ({
  pk: listMembersPartition(hubId, listId),
  sk: `${listSizePrefix}${String(shard).padStart(2, '0')}`,
});

/**
 * Every partition the keys above address, as IAM `dynamodb:LeadingKeys` patterns (StringLike: `*`
 * matches anything). The stack grants each function only the partitions its route touches
 * (its row's `partitions` in shared/routes.ts, granted by lib/route-stack.ts); a key function with a
 * new pk prefix needs a new entry here.
 */
export const partitions = {
  counters: 'COUNTER',
  appsByClientId: 'CLIENT#*',
  apps: 'APP#*',
  developers: 'DEVELOPER#*',
  developerApiKeys: 'DEVKEY#*',
  hubs: 'HUB#*',
  users: 'USER#*',
  loginAttempts: 'LOGIN#*',
  authCodes: 'CODE#*',
  usedAuthCodes: 'USEDCODE#*',
  refreshTokens: 'REFRESH#*',
  grants: 'GRANT#*',
  installStates: 'INSTALL_STATE#*',
  timelineEvents: 'TIMELINE_EVENT#*',
  rateLimits: 'LIMIT#*',
  faults: 'FAULTS#*',
  webhookPending: 'WEBHOOK_PENDING#*',
  associationLimits: 'ASSOC_LIMIT#*',
  journalEntries: 'JOURNAL#*',
} as const;

export type PartitionName = keyof typeof partitions;
