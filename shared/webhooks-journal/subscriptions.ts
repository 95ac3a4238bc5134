import { nowMs } from '../base/clock';
import { NotFoundError, ValidationError } from '../base/errors';
import { nextSequenceValue } from '../db/counters';
import {
  deleteJournalSubscription,
  findJournalSubscription,
  findJournalSubscriptionIdByKey,
  insertJournalSubscription,
  isJournalAppInstalled,
  listJournalSubscriptions,
  updateJournalSubscription,
  type JournalSubscription,
  type JournalSubscriptionFields,
} from '../db/webhooks-journal';
import { customTypeIdPattern } from '../objects/custom-object-types';
import { findObjectType } from '../objects/object-types';
import {
  journalLimits,
  journalSubscriptionTypes,
  listsObjectTypeId,
  type JournalSubscriptionType,
} from './journal-limits';

/** The caller: the app itself (its client-credentials token). */
export interface JournalCaller {
  appId: number;
}

/** An upsert request as the schema let it through (functions/webhooks-journal/webhooks-journal.schema.ts). */
export interface SubscriptionUpsertInput {
  subscriptionType: string;
  objectTypeId?: string;
  portalId?: number;
  eventTypeId?: string;
  actions?: string[];
  properties?: string[];
  objectIds?: number[];
  listIds?: number[];
  associatedObjectTypeIds?: string[];
}

/** HubSpot's SubscriptionResponse. */
export interface SubscriptionView {
  id: number;
  appId: number;
  subscriptionType: string;
  objectTypeId: string;
  actions: string[];
  portalId?: number;
  properties?: string[];
  objectIds?: number[];
  listIds?: number[];
  associatedObjectTypeIds?: string[];
  createdAt: string;
  updatedAt: string;
}

/** The actions each type may subscribe to, and the fields it takes besides `actions` (required ones first). */
const typeRules: Record<
  JournalSubscriptionType,
  { actions: readonly string[]; required: readonly (keyof SubscriptionUpsertInput)[]; optional: readonly string[] }
> = {
  OBJECT: {
    actions: ['CREATE', 'UPDATE', 'DELETE', 'MERGE', 'RESTORE'],
    required: ['objectTypeId', 'portalId', 'actions'],
    optional: ['objectIds', 'properties'],
  },
  ASSOCIATION: {
    actions: ['ASSOCIATION_ADDED', 'ASSOCIATION_REMOVED'],
    required: ['objectTypeId', 'associatedObjectTypeIds', 'portalId', 'actions'],
    optional: ['objectIds'],
  },
  LIST_MEMBERSHIP: {
    actions: ['ADDED_TO_LIST', 'REMOVED_FROM_LIST'],
    required: ['portalId', 'actions'],
    optional: ['listIds', 'objectIds'],
  },
  APP_LIFECYCLE_EVENT: {
    actions: ['APP_INSTALL', 'APP_UNINSTALL'],
    required: ['eventTypeId'],
    optional: ['actions', 'properties'],
  },
  GDPR_PRIVACY_DELETION: {
    actions: ['GDPR_DELETE'],
    required: ['objectTypeId', 'portalId', 'actions'],
    optional: [],
  },
};

const invalid = (field: string, message: string): ValidationError =>
  new ValidationError(message, { context: { field: [`body.${field}`] } });

const isJournalSubscriptionType = (value: string): value is JournalSubscriptionType =>
  (journalSubscriptionTypes as readonly string[]).includes(value);

/** A standard stored type (by id or name) or a custom object type id (`2-…`): its id; else 400 naming the field. */
function requireObjectTypeId(token: string, field: string): string {
  if (customTypeIdPattern.test(token)) return token;
  const type = findObjectType(token);
  if (!type?.isStored)
    throw invalid(field, `${token} is not an object type the journal can follow: use an object type id such as 0-1.`);
  return type.id;
}

function requireDistinct<T>(values: readonly T[], field: string): T[] {
  const seen = new Set<T>();
  for (const value of values) {
    if (seen.has(value)) throw invalid(field, `${field} names ${String(value)} more than once.`);
    seen.add(value);
  }
  return [...values];
}

/** The checked fields of an upsert: the type's required fields present, no field of another type, actions of the type. */
function subscriptionFieldsOf(input: SubscriptionUpsertInput): JournalSubscriptionFields {
  const type = input.subscriptionType;
  if (!isJournalSubscriptionType(type))
    throw invalid('subscriptionType', `subscriptionType must be one of ${journalSubscriptionTypes.join(', ')}.`);
  const rules = typeRules[type];
  for (const field of rules.required)
    if (input[field] === undefined) throw invalid(field, `A subscription of type ${type} needs ${field}.`);
  const allowed = new Set<string>(['subscriptionType', ...rules.required, ...rules.optional]);
  for (const [field, value] of Object.entries(input))
    if (value !== undefined && !allowed.has(field))
      throw invalid(field, `A subscription of type ${type} does not take ${field}.`);
  const actions = requireDistinct(input.actions ?? rules.actions, 'actions');
  if (actions.length === 0) throw invalid('actions', `actions must name at least one of ${rules.actions.join(', ')}.`);
  actions.forEach((action, index) => {
    if (!rules.actions.includes(action))
      throw invalid(
        `actions.${index}`,
        `A subscription of type ${type} takes the actions ${rules.actions.join(', ')}, not ${action}.`,
      );
  });
  const objectTypeId =
    type === 'APP_LIFECYCLE_EVENT'
      ? (input.eventTypeId ?? '')
      : type === 'LIST_MEMBERSHIP'
        ? listsObjectTypeId
        : requireObjectTypeId(input.objectTypeId ?? '', 'objectTypeId');
  const associatedObjectTypeIds = input.associatedObjectTypeIds?.map((token, index) =>
    requireObjectTypeId(token, `associatedObjectTypeIds.${index}`),
  );
  if (associatedObjectTypeIds?.length === 0)
    throw invalid('associatedObjectTypeIds', 'associatedObjectTypeIds must name at least one object type.');
  return {
    subscriptionType: type,
    objectTypeId,
    actions,
    ...(input.portalId === undefined ? {} : { portalId: input.portalId }),
    ...(input.eventTypeId === undefined ? {} : { eventTypeId: input.eventTypeId }),
    ...(input.properties === undefined ? {} : { properties: requireDistinct(input.properties, 'properties') }),
    ...(input.objectIds === undefined ? {} : { objectIds: requireDistinct(input.objectIds, 'objectIds') }),
    ...(input.listIds === undefined ? {} : { listIds: requireDistinct(input.listIds, 'listIds') }),
    ...(associatedObjectTypeIds === undefined
      ? {}
      : { associatedObjectTypeIds: requireDistinct(associatedObjectTypeIds, 'associatedObjectTypeIds') }),
  };
}

/** What an upsert with the same value updates: (type, object type, account); an app lifecycle subscription's event type. */
const upsertKeyOf = (fields: JournalSubscriptionFields): string =>
  fields.subscriptionType === 'APP_LIFECYCLE_EVENT'
    ? `${fields.subscriptionType}#${fields.eventTypeId ?? ''}`
    : `${fields.subscriptionType}#${fields.objectTypeId}#${fields.portalId ?? ''}`;

export function subscriptionViewOf(subscription: JournalSubscription): SubscriptionView {
  return {
    id: subscription.id,
    appId: subscription.appId,
    subscriptionType: subscription.subscriptionType,
    objectTypeId: subscription.objectTypeId,
    actions: subscription.actions,
    ...(subscription.portalId === undefined ? {} : { portalId: subscription.portalId }),
    ...(subscription.properties === undefined ? {} : { properties: subscription.properties }),
    ...(subscription.objectIds === undefined ? {} : { objectIds: subscription.objectIds }),
    ...(subscription.listIds === undefined ? {} : { listIds: subscription.listIds }),
    ...(subscription.associatedObjectTypeIds === undefined
      ? {}
      : { associatedObjectTypeIds: subscription.associatedObjectTypeIds }),
    createdAt: subscription.createdAt,
    updatedAt: subscription.updatedAt,
  };
}

const notInstalled = (portalId: number): ValidationError =>
  new ValidationError(`The app is not installed in account ${portalId}: install it there before subscribing to it.`, {
    context: { field: ['body.portalId'], portalId: [String(portalId)] },
  });

const limitReached = (): ValidationError =>
  new ValidationError(
    `Couldn't create another subscription: an app holds at most ${journalLimits.subscriptionsPerApp} webhooks journal subscriptions.`,
    { context: { field: ['body'] } },
  );

/**
 * Creates the subscription, or updates the one of the same upsert key (same id and creation time, a
 * new update time). A create that loses a race for the key updates the winner's; a key whose
 * subscription was deleted meanwhile is created anew. Three rounds at most: each lost round means
 * another request changed the key in between.
 */
export async function upsertJournalSubscription(
  caller: JournalCaller,
  input: SubscriptionUpsertInput,
): Promise<SubscriptionView> {
  const fields = subscriptionFieldsOf(input);
  if (fields.portalId !== undefined && !(await isJournalAppInstalled(fields.portalId, caller.appId)))
    throw notInstalled(fields.portalId);
  const upsertKey = upsertKeyOf(fields);
  for (let round = 0; round < 3; round += 1) {
    const now = new Date(nowMs()).toISOString();
    const existingId = await findJournalSubscriptionIdByKey(caller.appId, upsertKey);
    if (existingId !== undefined) {
      const updated = await updateJournalSubscription(caller.appId, existingId, upsertKey, fields, now);
      if (updated) return subscriptionViewOf(updated);
      continue;
    }
    const subscription: JournalSubscription = {
      ...fields,
      id: await nextSequenceValue('journalSubscriptionId', 1_000_001),
      appId: caller.appId,
      upsertKey,
      createdAt: now,
      updatedAt: now,
      filterIds: [],
      filterVersion: 0,
    };
    const outcome = await insertJournalSubscription(subscription, journalLimits.subscriptionsPerApp);
    if (outcome === 'inserted') return subscriptionViewOf(subscription);
    if (outcome === 'limit-reached') throw limitReached();
  }
  throw new ValidationError('Other requests kept changing this subscription; send the request again.', {
    context: { field: ['body'] },
  });
}

export async function listJournalSubscriptionViews(caller: JournalCaller): Promise<{ results: SubscriptionView[] }> {
  return { results: (await listJournalSubscriptions(caller.appId)).map(subscriptionViewOf) };
}

const subscriptionNotFound = (raw: string): NotFoundError =>
  new NotFoundError(`Subscription ${raw} not found.`, { context: { subscriptionId: [raw] } });

/** A subscription id as the path holds it (digits, checked by the schema), or 404 for one no id can be. */
export function subscriptionIdOf(raw: string): number {
  const id = Number(raw);
  if (!Number.isSafeInteger(id) || id < 1) throw subscriptionNotFound(raw);
  return id;
}

/** The caller's subscription of this id; another app's is as missing as one that never was (404). */
export async function requireJournalSubscription(caller: JournalCaller, raw: string): Promise<JournalSubscription> {
  const subscription = await findJournalSubscription(caller.appId, subscriptionIdOf(raw));
  if (!subscription) throw subscriptionNotFound(raw);
  return subscription;
}

export async function getJournalSubscription(caller: JournalCaller, raw: string): Promise<SubscriptionView> {
  return subscriptionViewOf(await requireJournalSubscription(caller, raw));
}

/**
 * Deletes the subscription and its filters (one transaction); false when it was gone. A filter
 * created or deleted in between makes it read the subscription again, three rounds at most.
 */
async function removeSubscription(subscription: JournalSubscription): Promise<boolean> {
  let current: JournalSubscription | undefined = subscription;
  for (let round = 0; round < 3 && current; round += 1) {
    const outcome = await deleteJournalSubscription(current);
    if (outcome === 'deleted') return true;
    if (outcome === 'gone') return false;
    current = await findJournalSubscription(current.appId, current.id);
  }
  if (!current) return false;
  throw new ValidationError("Other requests kept changing this subscription's filters; send the request again.", {
    context: { subscriptionId: [String(subscription.id)] },
  });
}

export async function deleteJournalSubscriptionById(caller: JournalCaller, raw: string): Promise<void> {
  const subscription = await requireJournalSubscription(caller, raw);
  if (!(await removeSubscription(subscription))) throw subscriptionNotFound(raw);
}

/**
 * Deletes every subscription of the app for one account, one transaction per subscription (at most
 * the app's limit of them); an account without any answers the same (there is nothing left to delete).
 */
export async function deleteJournalSubscriptionsOfPortal(caller: JournalCaller, rawPortalId: string): Promise<void> {
  const portalId = Number(rawPortalId);
  const ofPortal = (await listJournalSubscriptions(caller.appId)).filter(
    (subscription) => subscription.portalId === portalId,
  );
  for (const subscription of ofPortal) await removeSubscription(subscription);
}
