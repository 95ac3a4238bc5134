import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import {
  conditionalWrite,
  ExpressionPlaceholders,
  getItem,
  queryAll,
  queryPage,
  queryPages,
  transact,
  type Item,
  type TransactItem,
  type Entity,
  itemOf,
  recordOf,
} from './core';
import {
  appSigningSecretKey,
  hubPartition,
  installPrefix,
  webhookInFlightKey,
  webhookConfigPrefix,
  webhookDeliveryKey,
  webhookDeliveryPrefix,
  webhookSettingsKey,
  webhookSubscriptionClaimKey,
  webhookSubscriptionCountKey,
  webhookSubscriptionKey,
  webhookSubscriptionPrefix,
  appPartition,
} from './keys';

export interface WebhookSettings {
  appId: number;
  targetUrl: string;
  maxConcurrentRequests: number;
  createdAt: string;
  updatedAt: string;
}

export interface WebhookSubscription {
  id: number;
  appId: number;
  eventType: string;
  propertyName?: string;
  /** A generic `object.*` subscription's object type (`0-1`); legacy types name their object. */
  objectTypeId?: string;
  active: boolean;
  createdAt: string;
  updatedAt: string;
}

/** Everything event generation needs to know about one app: its target (if any) and its subscriptions. */
export interface WebhookConfig {
  settings?: WebhookSettings;
  subscriptions: WebhookSubscription[];
}

const settingsItem: Entity<WebhookSettings> = { key: (settings) => webhookSettingsKey(settings.appId) };
const subscriptionItem: Entity<WebhookSubscription> = {
  key: (subscription) => webhookSubscriptionKey(subscription.appId, subscription.id),
};

/** What a subscription claims once per app: its type, and a generic one's object type with it. */
const claimedType = (subscription: Pick<WebhookSubscription, 'eventType' | 'objectTypeId'>): string =>
  subscription.objectTypeId === undefined
    ? subscription.eventType
    : `${subscription.eventType}@${subscription.objectTypeId}`;

export async function findWebhookSettings(appId: number): Promise<WebhookSettings | undefined> {
  const item = await getItem(webhookSettingsKey(appId));
  return item ? recordOf(settingsItem, item) : undefined;
}

export async function putWebhookSettings(settings: WebhookSettings): Promise<WebhookSettings> {
  // createdAt survives a replacement: the first PUT's time stays.
  const result = await db.send(
    new UpdateCommand({
      TableName: tableName,
      Key: webhookSettingsKey(settings.appId),
      UpdateExpression:
        'SET appId = :app, targetUrl = :url, maxConcurrentRequests = :max, createdAt = if_not_exists(createdAt, :now), updatedAt = :now',
      ExpressionAttributeValues: {
        ':app': settings.appId,
        ':url': settings.targetUrl,
        ':max': settings.maxConcurrentRequests,
        ':now': settings.updatedAt,
      },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return recordOf(settingsItem, result.Attributes ?? {});
}

/** False when there were no settings to delete. */
export async function deleteWebhookSettings(appId: number): Promise<boolean> {
  const result = await db.send(
    new DeleteCommand({ TableName: tableName, Key: webhookSettingsKey(appId), ReturnValues: 'ALL_OLD' }),
  );
  return result.Attributes !== undefined;
}

/**
 * Settings, subscriptions and their count in one Query (they share the app's partition and a
 * sort-key prefix), every page: the subscription limit (the count item) keeps it to a few pages.
 */
export async function findWebhookConfig(appId: number): Promise<WebhookConfig> {
  const config: WebhookConfig = { subscriptions: [] };
  for (const item of await queryAll(appPartition(appId), webhookConfigPrefix)) {
    const sk = String(item.sk);
    if (sk === webhookSettingsKey(appId).sk) config.settings = recordOf(settingsItem, item);
    else if (sk.startsWith(webhookSubscriptionPrefix)) config.subscriptions.push(recordOf(subscriptionItem, item));
  }
  config.subscriptions.sort((a, b) => a.id - b.id);
  return config;
}

export async function findWebhookSubscription(
  appId: number,
  subscriptionId: number,
): Promise<WebhookSubscription | undefined> {
  const item = await getItem(webhookSubscriptionKey(appId, subscriptionId));
  return item ? recordOf(subscriptionItem, item) : undefined;
}

export type InsertSubscriptionOutcome = 'inserted' | 'limit-reached' | 'duplicate';

/**
 * Creates a subscription, its (event type, property) claim and bumps the app's count in one
 * transaction: two racing creates can neither pass the limit nor make the same subscription twice.
 */
export async function insertWebhookSubscription(
  subscription: WebhookSubscription,
  limit: number,
): Promise<InsertSubscriptionOutcome> {
  const outcome = await transact<'count' | 'subscription' | 'claim'>([
    {
      role: 'count',
      write: {
        Update: {
          TableName: tableName,
          Key: webhookSubscriptionCountKey(subscription.appId),
          UpdateExpression: 'ADD #count :one',
          ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',
          ExpressionAttributeNames: { '#count': 'count' },
          ExpressionAttributeValues: { ':one': 1, ':limit': limit },
        },
      },
    },
    {
      role: 'subscription',
      write: {
        Put: {
          TableName: tableName,
          Item: itemOf(subscriptionItem, subscription),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    },
    {
      role: 'claim',
      write: {
        Put: {
          TableName: tableName,
          Item: {
            ...webhookSubscriptionClaimKey(subscription.appId, claimedType(subscription), subscription.propertyName),
            subscriptionId: subscription.id,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    },
  ]);
  if (outcome.committed) return 'inserted';
  const failed = outcome.reasons
    .filter((reason) => reason.code === 'ConditionalCheckFailed')
    .map((reason) => reason.role);
  if (failed.includes('count')) return 'limit-reached';
  if (failed.includes('claim')) return 'duplicate';
  throw outcome.error;
}

/** The subscription after the change, or undefined when it does not exist. */
export async function setWebhookSubscriptionActive(
  appId: number,
  subscriptionId: number,
  active: boolean,
  updatedAt: string,
): Promise<WebhookSubscription | undefined> {
  const outcome = await conditionalWrite(
    new UpdateCommand({
      TableName: tableName,
      Key: webhookSubscriptionKey(appId, subscriptionId),
      UpdateExpression: 'SET active = :active, updatedAt = :now',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':active': active, ':now': updatedAt },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return outcome.written ? recordOf(subscriptionItem, outcome.attributes ?? {}) : undefined;
}

/** Deletes the subscription with its claim and lowers the count, together; false when it did not exist. */
export async function deleteWebhookSubscription(subscription: WebhookSubscription): Promise<boolean> {
  const { appId } = subscription;
  const outcome = await transact<'subscription' | 'other'>([
    {
      role: 'subscription',
      write: {
        Delete: {
          TableName: tableName,
          Key: webhookSubscriptionKey(appId, subscription.id),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
    },
    {
      role: 'other',
      write: {
        Delete: {
          TableName: tableName,
          Key: webhookSubscriptionClaimKey(appId, claimedType(subscription), subscription.propertyName),
        },
      },
    },
    {
      role: 'other',
      write: {
        Update: {
          TableName: tableName,
          Key: webhookSubscriptionCountKey(appId),
          UpdateExpression: 'ADD #count :minusOne',
          ExpressionAttributeNames: { '#count': 'count' },
          ExpressionAttributeValues: { ':minusOne': -1 },
        },
      },
    },
  ]);
  if (outcome.committed) return true;
  if (outcome.reasons.some((reason) => reason.role === 'subscription' && reason.code === 'ConditionalCheckFailed'))
    return false;
  throw outcome.error;
}

/** The write that keeps an app's sealed client secret; made in the app's creating transaction. */
export function webhookSigningSecretWrite(appId: number, sealed: string): TransactItem {
  return {
    Put: {
      TableName: tableName,
      Item: { ...appSigningSecretKey(appId), appId, sealed },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** The sealed client secret of an app, or undefined for apps created before webhooks existed. It never changes once written. */
export async function findWebhookSigningSecret(appId: number): Promise<string | undefined> {
  const item = await getItem(appSigningSecretKey(appId), false);
  return typeof item?.sealed === 'string' ? item.sealed : undefined;
}

/** An app's install in an account, as event generation needs it: the app and the scopes the install granted. */
export interface InstalledApp {
  appId: number;
  scopes: string[];
}

/**
 * The apps installed in an account with the scopes each install granted (one Query of the
 * account's install records, every page, strongly consistent). An app whose install record is
 * gone is not among them.
 */
export async function findInstalledApps(hubId: number): Promise<InstalledApp[]> {
  const installs: InstalledApp[] = [];
  for await (const page of queryPages({
    pk: hubPartition(hubId),
    skPrefix: installPrefix,
    projection: 'appId, scopes',
  })) {
    for (const item of page) {
      if (typeof item.appId !== 'number') continue;
      const scopes = Array.isArray(item.scopes)
        ? item.scopes.filter((scope): scope is string => typeof scope === 'string')
        : [];
      installs.push({ appId: item.appId, scopes });
    }
  }
  return installs;
}

/** One delivery attempt, as the delivery log shows it. */
export interface DeliveryAttempt {
  appId: number;
  portalId: number;
  attemptedAt: string;
  targetUrl: string;
  /** The target's HTTP status; absent when no answer came (connection failure, timeout). */
  statusCode?: number;
  outcome: 'delivered' | 'failed' | 'dead-lettered';
  error?: string;
  latencyMs: number;
  attemptNumber: number;
  eventIds: string[];
}

/** Delivery log rows live this long (DynamoDB TTL). */
export const deliveryLogRetentionSeconds = 3 * 24 * 3600;

/** A delivery attempt's item: keyed by its time and id (scope), and gone after deliveryLogRetentionSeconds (TTL). */
const deliveryAttemptItem: Entity<DeliveryAttempt, string> = {
  key: (attempt, attemptId) => webhookDeliveryKey(attempt.appId, Date.parse(attempt.attemptedAt), attemptId),
};

export async function insertDeliveryAttempt(attempt: DeliveryAttempt, attemptId: string): Promise<void> {
  const attemptedAtMs = Date.parse(attempt.attemptedAt);
  await db.send(
    new PutCommand({
      TableName: tableName,
      Item: {
        ...itemOf(deliveryAttemptItem, attempt, attemptId),
        ttl: Math.floor(attemptedAtMs / 1000) + deliveryLogRetentionSeconds,
      },
    }),
  );
}

/** Newest first; `before` is the sort key of the last row of the previous page (opaque to callers). */
export async function listDeliveryAttempts(
  appId: number,
  limit: number,
  before: string | undefined,
): Promise<{ attempts: DeliveryAttempt[]; next?: string }> {
  const pk = appPartition(appId);
  const { items } = await queryPage(
    { pk, skPrefix: webhookDeliveryPrefix, newestFirst: true, pageSize: limit + 1 },
    before === undefined ? undefined : { pk, sk: `${webhookDeliveryPrefix}${before}` },
  );
  const page = items.slice(0, limit);
  const last = page.at(-1);
  const next = items.length > limit && last ? String(last.sk).slice(webhookDeliveryPrefix.length) : undefined;
  return { attempts: page.map((item) => recordOf(deliveryAttemptItem, item)), next };
}

/** One page of an app's attempts for one account: each with its place in the log (a paging cursor). */
export interface PortalAttemptsPage {
  /** Newest first, at most `want`. */
  attempts: { position: string; attempt: DeliveryAttempt }[];
  /**
   * Set when the app's log may hold more of the account's attempts older than what was read: the
   * place of the last row read (rows after it are unknown). Absent when the log was read to its end.
   */
  frontier?: string;
}

/**
 * An app's attempts for one account (portalId), newest first, older than `before` (a place as
 * listDeliveryAttempts pages by), at most `want`, reading at most `maxRead` rows of the app's log
 * (the app's log holds every account's attempts, and the filter drops the others' after reading).
 */
export async function listPortalDeliveryAttempts(
  appId: number,
  portalId: number,
  options: { want: number; before?: string; maxRead: number },
): Promise<PortalAttemptsPage> {
  const pk = appPartition(appId);
  const attempts: PortalAttemptsPage['attempts'] = [];
  let startKey: Item | undefined =
    options.before === undefined ? undefined : { pk, sk: `${webhookDeliveryPrefix}${options.before}` };
  let read = 0;
  while (read < options.maxRead) {
    const { items, nextKey } = await queryPage(
      {
        pk,
        skPrefix: webhookDeliveryPrefix,
        newestFirst: true,
        pageSize: Math.min(100, options.maxRead - read),
        filter: 'portalId = :portal',
        values: { ':portal': portalId },
      },
      startKey,
    );
    read += Math.min(100, options.maxRead - read);
    for (const item of items) {
      const position = String(item.sk).slice(webhookDeliveryPrefix.length);
      attempts.push({ position, attempt: recordOf(deliveryAttemptItem, item) });
      if (attempts.length === options.want) return { attempts, frontier: position };
    }
    if (!nextKey) return { attempts };
    startKey = nextKey;
  }
  return { attempts, frontier: String(startKey?.sk ?? '').slice(webhookDeliveryPrefix.length) };
}

/** A table item as a stream record carries it (unmarshalled). */
export type ItemImage = Item;

/** A held place among the requests in flight to one app's target. */
export interface InFlightSlot {
  appId: number;
  slot: string;
  leaseUntilMs: number;
}

const slotName = (index: number) => `s${index}`;

/**
 * Takes one of the app's `max` places for a request to its target, whatever account the request
 * is for, or undefined when all are taken. A place is a lease (an expiry time), so one a crashed
 * deliverer held frees itself; the conditional write makes two deliverers never take the same
 * place. Places from `max` up to `slotCeiling` (held under a higher limit, before the settings
 * changed) must be free too, in the same condition: a lowered limit is never exceeded, not even
 * by the requests already in flight when it was lowered.
 */
export async function acquireInFlightSlot(
  appId: number,
  max: number,
  slotCeiling: number,
  nowMs: number,
  leaseMs: number,
): Promise<InFlightSlot | undefined> {
  const key = webhookInFlightKey(appId);
  const isFree = (item: Record<string, unknown>, slot: string) =>
    typeof item[slot] !== 'number' || (item[slot] as number) < nowMs;
  const beyond = Array.from({ length: Math.max(0, slotCeiling - max) }, (_, index) => slotName(max + index));
  for (let round = 0; round < 3; round += 1) {
    const current = (await getItem(key)) ?? {};
    if (!beyond.every((slot) => isFree(current, slot))) return undefined;
    const free = Array.from({ length: max }, (_, index) => slotName(index)).filter((slot) => isFree(current, slot));
    if (free.length === 0) return undefined;
    const slot = free[Math.floor(Math.random() * free.length)] ?? slotName(0);
    const seen = current[slot];
    const leaseUntilMs = nowMs + leaseMs;
    const placeholders = new ExpressionPlaceholders();
    const outcome = await conditionalWrite(
      new UpdateCommand({
        TableName: tableName,
        Key: key,
        UpdateExpression: 'SET #slot = :until',
        ConditionExpression: [
          typeof seen === 'number' ? '#slot = :seen' : 'attribute_not_exists(#slot)',
          ...beyond
            .map((name) => placeholders.name(name))
            .map((placeholder) => `(attribute_not_exists(${placeholder}) OR ${placeholder} < :now)`),
        ].join(' AND '),
        ...placeholders.attributes({
          names: { '#slot': slot },
          values: {
            ':until': leaseUntilMs,
            ...(typeof seen === 'number' ? { ':seen': seen } : {}),
            ...(beyond.length > 0 ? { ':now': nowMs } : {}),
          },
        }),
      }),
    );
    // Another deliverer changed the places since they were read: read them again.
    if (outcome.written) return { appId, slot, leaseUntilMs };
  }
  return undefined;
}

/** Gives the place back, unless its lease ran out and another deliverer took it meanwhile. */
export async function releaseInFlightSlot(held: InFlightSlot): Promise<void> {
  await conditionalWrite(
    new UpdateCommand({
      TableName: tableName,
      Key: webhookInFlightKey(held.appId),
      UpdateExpression: 'REMOVE #slot',
      ConditionExpression: '#slot = :until',
      ExpressionAttributeNames: { '#slot': held.slot },
      ExpressionAttributeValues: { ':until': held.leaseUntilMs },
    }),
  );
}
