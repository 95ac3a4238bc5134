import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from './client';
import {
  batchGetAll,
  conditionalWrite,
  ExpressionPlaceholders,
  getItem,
  itemOf,
  queryAll,
  recordOf,
  transact,
  type Entity,
  type Item,
  type RoleWrite,
} from './core';
import {
  appPartition,
  installKey,
  journalFilterKey,
  journalSubscriptionClaimKey,
  journalSubscriptionCountKey,
  journalSubscriptionKey,
  journalSubscriptionPrefix,
} from './keys';

/** What a webhooks journal subscription says, as its owner wrote it (shared/webhooks-journal/subscriptions.ts checks it). */
export interface JournalSubscriptionFields {
  subscriptionType: string;
  objectTypeId: string;
  actions: string[];
  portalId?: number;
  eventTypeId?: string;
  properties?: string[];
  objectIds?: number[];
  listIds?: number[];
  associatedObjectTypeIds?: string[];
}

export interface JournalSubscription extends JournalSubscriptionFields {
  id: number;
  appId: number;
  /** The upsert key (its claim item's): an upsert with the same key updates this subscription. */
  upsertKey: string;
  createdAt: string;
  updatedAt: string;
  /** The ids of its filters (at most the filter limit): a delete takes them with it. */
  filterIds: number[];
  /** Counts every filter change: a delete writes only if the filters are still those it read. */
  filterVersion: number;
}

export interface JournalFilterCondition {
  filterType: string;
  property: string;
  operator: string;
  value?: string;
  values?: string[];
}

export interface JournalFilter {
  id: number;
  appId: number;
  subscriptionId: number;
  filter: { conditions: JournalFilterCondition[] };
  /** Epoch milliseconds, as HubSpot answers a filter's creation time. */
  createdAt: number;
}

/** The fields an update may set; one that an update leaves out is removed. */
const writableFields = [
  'subscriptionType',
  'objectTypeId',
  'actions',
  'portalId',
  'eventTypeId',
  'properties',
  'objectIds',
  'listIds',
  'associatedObjectTypeIds',
] as const satisfies readonly (keyof JournalSubscriptionFields)[];

const numberSetOf = (value: unknown): number[] =>
  value instanceof Set ? [...(value as Set<unknown>)].map(Number).sort((a, b) => a - b) : [];

const subscriptionItem: Entity<JournalSubscription> = {
  key: (subscription) => journalSubscriptionKey(subscription.appId, subscription.id),
  read: (item) => {
    const { pk, sk, filterIds, filterVersion, ...rest } = item;
    void pk;
    void sk;
    return {
      ...(rest as unknown as Omit<JournalSubscription, 'filterIds' | 'filterVersion'>),
      filterIds: numberSetOf(filterIds),
      filterVersion: typeof filterVersion === 'number' ? filterVersion : 0,
    };
  },
};

const filterItem: Entity<JournalFilter> = { key: (filter) => journalFilterKey(filter.appId, filter.id) };

/** The stored item of a new subscription: no filters yet (an empty set is no attribute in DynamoDB). */
function newSubscriptionItem(subscription: JournalSubscription): Item {
  const { filterIds, ...rest } = itemOf(subscriptionItem, subscription);
  void filterIds;
  return { ...rest, filterVersion: 0 };
}

export async function findJournalSubscription(
  appId: number,
  subscriptionId: number,
): Promise<JournalSubscription | undefined> {
  const item = await getItem(journalSubscriptionKey(appId, subscriptionId));
  return item ? recordOf(subscriptionItem, item) : undefined;
}

/** Every subscription of the app (at most the app's limit, so a few pages), by id. */
export async function listJournalSubscriptions(appId: number): Promise<JournalSubscription[]> {
  const items = await queryAll(appPartition(appId), journalSubscriptionPrefix);
  return items.map((item) => recordOf(subscriptionItem, item)).sort((a, b) => a.id - b.id);
}

/** The id of the subscription holding an upsert key, if any. */
export async function findJournalSubscriptionIdByKey(appId: number, upsertKey: string): Promise<number | undefined> {
  const item = await getItem(journalSubscriptionClaimKey(appId, upsertKey));
  return typeof item?.subscriptionId === 'number' ? item.subscriptionId : undefined;
}

/** Whether the app is installed in the account (the install item the token exchange writes). */
export async function isJournalAppInstalled(hubId: number, appId: number): Promise<boolean> {
  return (await getItem(installKey(hubId, appId))) !== undefined;
}

export type InsertJournalSubscriptionOutcome = 'inserted' | 'limit-reached' | 'key-taken';

/**
 * The subscription, its upsert key's claim and the app's count in one transaction: racing creates
 * can neither pass the limit nor make two subscriptions of one key ('key-taken': update that one).
 */
export async function insertJournalSubscription(
  subscription: JournalSubscription,
  limit: number,
): Promise<InsertJournalSubscriptionOutcome> {
  const outcome = await transact<'count' | 'subscription' | 'claim'>([
    {
      role: 'count',
      write: {
        Update: {
          TableName: tableName,
          Key: journalSubscriptionCountKey(subscription.appId),
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
          Item: newSubscriptionItem(subscription),
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
            ...journalSubscriptionClaimKey(subscription.appId, subscription.upsertKey),
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
  if (failed.includes('claim')) return 'key-taken';
  if (failed.includes('count')) return 'limit-reached';
  throw outcome.error;
}

/**
 * Sets the subscription's fields (those `fields` leaves out are removed) and its update time, if it
 * still holds the upsert key; the subscription after the change, or undefined when it is gone.
 */
export async function updateJournalSubscription(
  appId: number,
  subscriptionId: number,
  upsertKey: string,
  fields: JournalSubscriptionFields,
  updatedAt: string,
): Promise<JournalSubscription | undefined> {
  const placeholders = new ExpressionPlaceholders();
  const set = [`${placeholders.name('updatedAt')} = ${placeholders.value(updatedAt)}`];
  const remove: string[] = [];
  for (const field of writableFields) {
    const value = fields[field];
    if (value === undefined) remove.push(placeholders.name(field));
    else set.push(`${placeholders.name(field)} = ${placeholders.value(value)}`);
  }
  const outcome = await conditionalWrite(
    new UpdateCommand({
      TableName: tableName,
      Key: journalSubscriptionKey(appId, subscriptionId),
      UpdateExpression: `SET ${set.join(', ')}${remove.length > 0 ? ` REMOVE ${remove.join(', ')}` : ''}`,
      ConditionExpression: `attribute_exists(pk) AND ${placeholders.name('upsertKey')} = ${placeholders.value(upsertKey)}`,
      ...placeholders.attributes(),
      ReturnValues: 'ALL_NEW',
    }),
  );
  return outcome.written ? recordOf(subscriptionItem, outcome.attributes ?? {}) : undefined;
}

export type DeleteJournalSubscriptionOutcome = 'deleted' | 'gone' | 'filters-changed';

/**
 * The subscription, its claim and its filters in one transaction, and the app's count down by one:
 * 'filters-changed' when a filter came or went since `subscription` was read (read it again).
 */
export async function deleteJournalSubscription(
  subscription: JournalSubscription,
): Promise<DeleteJournalSubscriptionOutcome> {
  const { appId, id } = subscription;
  const writes: RoleWrite<'subscription' | 'other'>[] = [
    {
      role: 'subscription',
      write: {
        Delete: {
          TableName: tableName,
          Key: journalSubscriptionKey(appId, id),
          ConditionExpression: 'attribute_exists(pk) AND filterVersion = :version',
          ExpressionAttributeValues: { ':version': subscription.filterVersion },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
    },
    {
      role: 'other',
      write: {
        Delete: {
          TableName: tableName,
          Key: journalSubscriptionClaimKey(appId, subscription.upsertKey),
          ConditionExpression: 'subscriptionId = :id',
          ExpressionAttributeValues: { ':id': id },
        },
      },
    },
    {
      role: 'other',
      write: {
        Update: {
          TableName: tableName,
          Key: journalSubscriptionCountKey(appId),
          UpdateExpression: 'ADD #count :minusOne',
          ExpressionAttributeNames: { '#count': 'count' },
          ExpressionAttributeValues: { ':minusOne': -1 },
        },
      },
    },
    ...subscription.filterIds.map(
      (filterId): RoleWrite<'subscription' | 'other'> => ({
        role: 'other',
        write: { Delete: { TableName: tableName, Key: journalFilterKey(appId, filterId) } },
      }),
    ),
  ];
  const outcome = await transact(writes);
  if (outcome.committed) return 'deleted';
  const held = outcome.reasons.find(
    (reason) => reason.role === 'subscription' && reason.code === 'ConditionalCheckFailed',
  );
  if (held) return held.item ? 'filters-changed' : 'gone';
  throw outcome.error;
}

export type InsertJournalFilterOutcome = 'inserted' | 'no-subscription' | 'limit-reached';

/** The filter, and its id added to its subscription's (at most `limit` of them), in one transaction. */
export async function insertJournalFilter(filter: JournalFilter, limit: number): Promise<InsertJournalFilterOutcome> {
  const outcome = await transact<'filter' | 'subscription'>([
    {
      role: 'filter',
      write: {
        Put: {
          TableName: tableName,
          Item: itemOf(filterItem, filter),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    },
    {
      role: 'subscription',
      write: {
        Update: {
          TableName: tableName,
          Key: journalSubscriptionKey(filter.appId, filter.subscriptionId),
          UpdateExpression: 'ADD filterIds :ids, filterVersion :one',
          ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(filterIds) OR size(filterIds) < :limit)',
          ExpressionAttributeValues: { ':ids': new Set([filter.id]), ':one': 1, ':limit': limit },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
    },
  ]);
  if (outcome.committed) return 'inserted';
  const subscription = outcome.reasons.find(
    (reason) => reason.role === 'subscription' && reason.code === 'ConditionalCheckFailed',
  );
  if (subscription) return subscription.item ? 'limit-reached' : 'no-subscription';
  throw outcome.error;
}

export async function findJournalFilter(appId: number, filterId: number): Promise<JournalFilter | undefined> {
  const item = await getItem(journalFilterKey(appId, filterId));
  return item ? recordOf(filterItem, item) : undefined;
}

/** The filters of these ids (a subscription's: at most the filter limit), by id. */
export async function findJournalFilters(appId: number, filterIds: readonly number[]): Promise<JournalFilter[]> {
  if (filterIds.length === 0) return [];
  const items = await batchGetAll(filterIds.map((filterId) => journalFilterKey(appId, filterId)));
  return items.map((item) => recordOf(filterItem, item)).sort((a, b) => a.id - b.id);
}

/** The filter, and its id taken from its subscription's, in one transaction; false when it was already gone. */
export async function deleteJournalFilter(filter: JournalFilter): Promise<boolean> {
  const outcome = await transact<'filter' | 'subscription'>([
    {
      role: 'filter',
      write: {
        Delete: {
          TableName: tableName,
          Key: journalFilterKey(filter.appId, filter.id),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
    },
    {
      role: 'subscription',
      write: {
        Update: {
          TableName: tableName,
          Key: journalSubscriptionKey(filter.appId, filter.subscriptionId),
          UpdateExpression: 'DELETE filterIds :ids ADD filterVersion :one',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':ids': new Set([filter.id]), ':one': 1 },
        },
      },
    },
  ]);
  if (outcome.committed) return true;
  if (outcome.reasons.some((reason) => reason.code === 'ConditionalCheckFailed')) return false;
  throw outcome.error;
}
