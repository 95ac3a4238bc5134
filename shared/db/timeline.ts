import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from './client';
import {
  batchDeleteAll,
  batchGetAll,
  batchPutAll,
  conditionalWrite,
  getItem,
  itemBytes,
  maxItemBytes,
  putNew,
  queryAll,
  transact,
  type Item,
  type Entity,
  itemOf,
  recordOf,
} from './core';
import {
  appPartition,
  recordKey,
  timelineEventKey,
  timelineEventListingKey,
  timelineEventTypeKey,
  timelinePropertyKey,
  timelinePropertyNameKey,
  timelineTypePrefix,
  timelineTypesPrefix,
  type KeyedType,
} from './keys';

export const timelineObjectTypes = ['CONTACT', 'COMPANY', 'DEAL'] as const;
export type TimelineObjectType = (typeof timelineObjectTypes)[number];

export const timelinePropertyTypes = ['String', 'Numeric', 'Date', 'Enumeration'] as const;
export type TimelinePropertyType = (typeof timelinePropertyTypes)[number];

export interface EventType {
  id: number;
  name: string;
  headerTemplate: string | null;
  detailTemplate: string | null;
  objectType: TimelineObjectType;
  applicationId: number;
}

export interface EventTypePropertyOption {
  value: string;
  label: string;
}

export interface EventTypeProperty {
  id: number;
  eventTypeId: number;
  name: string;
  label: string;
  propertyType: TimelinePropertyType;
  objectProperty?: string;
  options: EventTypePropertyOption[] | null;
}

export interface TimelineEvent {
  id: string;
  applicationId: number;
  portalId: number;
  eventTypeId: number;
  objectType: TimelineObjectType;
  objectId: number;
  timestamp: number;
  /** Custom fields by property name; values as sent (strings). */
  fields: Record<string, string>;
  /**
   * Kept as JSON text: a caller's object may nest deeper than DynamoDB's 32 levels, and the text's
   * byte length is exactly what it costs in the item, so size checks before the write are exact.
   */
  extraDataJson?: string;
  timelineIFrameJson?: string;
}

// Plain constants rather than properties of one object: esbuild can drop an unused entity
// declaration only when its arguments are side-effect free, and a property read is not.
const eventTypeTag = 'timelineEventType';
const propertyTag = 'timelineEventTypeProperty';
const eventTag = 'timelineEvent';
const entityTag = {
  type: eventTypeTag,
  property: propertyTag,
  nameClaim: 'timelinePropertyName',
  event: eventTag,
} as const;

function toEventType(item: Item): EventType {
  return {
    id: item.id as number,
    name: item.name as string,
    headerTemplate: (item.headerTemplate as string | undefined) ?? null,
    detailTemplate: (item.detailTemplate as string | undefined) ?? null,
    objectType: item.objectType as TimelineObjectType,
    applicationId: item.applicationId as number,
  };
}

function toProperty(item: Item): EventTypeProperty {
  return {
    id: item.id as number,
    eventTypeId: item.eventTypeId as number,
    name: item.name as string,
    label: item.label as string,
    propertyType: item.propertyType as TimelinePropertyType,
    ...(typeof item.objectProperty === 'string' ? { objectProperty: item.objectProperty } : {}),
    options: (item.options as EventTypePropertyOption[] | undefined) ?? null,
  };
}

function toEvent(item: Item): TimelineEvent {
  return {
    id: item.id as string,
    applicationId: item.applicationId as number,
    portalId: item.portalId as number,
    eventTypeId: item.eventTypeId as number,
    objectType: item.objectType as TimelineObjectType,
    objectId: item.objectId as number,
    timestamp: item.timestamp as number,
    fields: (item.fields as Record<string, string> | undefined) ?? {},
    ...(typeof item.extraDataJson === 'string' ? { extraDataJson: item.extraDataJson } : {}),
    ...(typeof item.timelineIFrameJson === 'string' ? { timelineIFrameJson: item.timelineIFrameJson } : {}),
  };
}

const eventTypeEntity: Entity<EventType> = {
  key: (type) => timelineEventTypeKey(type.applicationId, type.id),
  attributes: { entity: eventTypeTag },
  read: toEventType,
};
const propertyEntity: Entity<EventTypeProperty, number> = {
  key: (property, appId) => timelinePropertyKey(appId, property.eventTypeId, property.id),
  attributes: { entity: propertyTag },
  read: toProperty,
};
/** The most one event-type property's item may take (core.maxItemBytes). */
export const maxTimelinePropertyItemBytes = maxItemBytes;

/** What a property's item takes in the table (core.itemBytes), to refuse one that cannot be stored before writing. */
export function timelinePropertyItemBytes(appId: number, property: EventTypeProperty): number {
  return itemBytes(itemOf(propertyEntity, property, appId));
}

const eventEntity: Entity<TimelineEvent> = {
  key: (event) => timelineEventKey(event.portalId, event.eventTypeId, event.id),
  attributes: { entity: eventTag },
  read: toEvent,
};

/** The stored form of an event; its JSON size is what the size checks measure. */
export const eventItem = (event: TimelineEvent): Item => itemOf(eventEntity, event);

export async function insertEventType(type: EventType): Promise<void> {
  // The id comes from a sequence, so an existing item can only be another writer's bug, never a client's input.
  if (!(await putNew(itemOf(eventTypeEntity, type))))
    throw new Error(`event type ${type.id} of app ${type.applicationId} already exists`);
}

export async function findEventType(appId: number, eventTypeId: number): Promise<EventType | undefined> {
  const item = await getItem(timelineEventTypeKey(appId, eventTypeId));
  return item ? recordOf(eventTypeEntity, item) : undefined;
}

export async function listEventTypes(appId: number): Promise<EventType[]> {
  const items = await queryAll(appPartition(appId), timelineTypesPrefix);
  return items
    .filter((item) => item.entity === entityTag.type)
    .map((item) => recordOf(eventTypeEntity, item))
    .sort((a, b) => a.id - b.id);
}

/** Returns false when the event type does not exist (nothing is written then). */
export async function replaceEventType(type: EventType): Promise<boolean> {
  return (
    await conditionalWrite(
      new PutCommand({
        TableName: tableName,
        Item: itemOf(eventTypeEntity, type),
        ConditionExpression: 'attribute_exists(pk)',
      }),
    )
  ).written;
}

/**
 * Deletes the type first (conditionally, so a missing one is reported), which makes it invisible at
 * once; then its properties and name claims. Property writes check that the type exists, so none can
 * slip in afterwards. Events stay stored but cannot be read any more: reads need their type.
 */
export async function deleteEventType(appId: number, eventTypeId: number): Promise<boolean> {
  const deleted = await conditionalWrite(
    new DeleteCommand({
      TableName: tableName,
      Key: timelineEventTypeKey(appId, eventTypeId),
      ConditionExpression: 'attribute_exists(pk)',
    }),
  );
  if (!deleted.written) return false;
  const rest = await queryAll(appPartition(appId), timelineTypePrefix(eventTypeId));
  await batchDeleteAll(rest.map((item) => ({ pk: item.pk as string, sk: item.sk as string })));
  return true;
}

/** The type and its properties in one strongly consistent query. */
export async function findEventTypeWithProperties(
  appId: number,
  eventTypeId: number,
): Promise<{ type: EventType; properties: EventTypeProperty[] } | undefined> {
  const items = await queryAll(appPartition(appId), timelineTypePrefix(eventTypeId));
  const typeItem = items.find((item) => item.entity === entityTag.type);
  if (!typeItem) return undefined;
  const found = items
    .filter((item) => item.entity === entityTag.property)
    .map((item) => recordOf(propertyEntity, item))
    .sort((a, b) => a.id - b.id);
  return { type: recordOf(eventTypeEntity, typeItem), properties: found };
}

export async function findProperty(
  appId: number,
  eventTypeId: number,
  propertyId: number,
): Promise<EventTypeProperty | undefined> {
  const item = await getItem(timelinePropertyKey(appId, eventTypeId, propertyId));
  return item ? recordOf(propertyEntity, item) : undefined;
}

export type InsertPropertyOutcome = 'created' | 'type-missing' | 'name-taken';

/** One transaction: the type must exist, and the name claim makes names unique even when requests race. */
export async function insertProperty(appId: number, property: EventTypeProperty): Promise<InsertPropertyOutcome> {
  const outcome = await transact([
    {
      role: 'type',
      write: {
        ConditionCheck: {
          TableName: tableName,
          Key: timelineEventTypeKey(appId, property.eventTypeId),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
    },
    {
      role: 'property',
      write: {
        Put: {
          TableName: tableName,
          Item: itemOf(propertyEntity, property, appId),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    },
    {
      role: 'name',
      write: {
        Put: {
          TableName: tableName,
          Item: {
            ...timelinePropertyNameKey(appId, property.eventTypeId, property.name),
            entity: entityTag.nameClaim,
            propertyId: property.id,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    },
  ]);
  if (outcome.committed) return 'created';
  const failed = new Set(
    outcome.reasons.filter((reason) => reason.code === 'ConditionalCheckFailed').map((reason) => reason.role),
  );
  if (failed.has('type')) return 'type-missing';
  if (failed.has('name')) return 'name-taken';
  throw outcome.error;
}

/** Replaces a property whose name is unchanged; false when it no longer exists. */
export async function replaceProperty(appId: number, property: EventTypeProperty): Promise<boolean> {
  const outcome = await conditionalWrite(
    new PutCommand({
      TableName: tableName,
      Item: itemOf(propertyEntity, property, appId),
      ConditionExpression: 'attribute_exists(pk) AND #name = :name',
      ExpressionAttributeNames: { '#name': 'name' },
      ExpressionAttributeValues: { ':name': property.name },
    }),
  );
  return outcome.written;
}

/** Deletes the property and its name claim together; false when the property does not exist. */
export async function deleteProperty(appId: number, property: EventTypeProperty): Promise<boolean> {
  const outcome = await transact([
    {
      role: 'property',
      write: {
        Delete: {
          TableName: tableName,
          Key: timelinePropertyKey(appId, property.eventTypeId, property.id),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
    },
    {
      role: 'name',
      write: {
        Delete: { TableName: tableName, Key: timelinePropertyNameKey(appId, property.eventTypeId, property.name) },
      },
    },
  ]);
  if (outcome.committed) return true;
  if (outcome.reasons.some((reason) => reason.role === 'property' && reason.code === 'ConditionalCheckFailed'))
    return false;
  throw outcome.error;
}

export type InsertEventsOutcome =
  | { outcome: 'created' }
  /** Positions (in the given list) of the events whose id already exists. */
  | { outcome: 'duplicate'; indexes: number[] }
  /** Another request wrote one of these events at the same moment; nothing was written. */
  | { outcome: 'conflict' };

/** DynamoDB's limit of items in one transaction; the batch limit of 100 events matches it. */
export const maxEventsPerWrite = 100;

/**
 * Writes all events or none: one conditional put for a single event, otherwise one transaction whose
 * every put requires that the event id is new. The caller validates everything before this.
 * `listed` (a test account's events) first writes one listing item per event in the account's
 * partition (keys.ts timelineEventListingKey), so the account's purge can find them: with
 * BatchWriteItem, before the events, since the transaction already holds DynamoDB's 100 writes. A
 * listing item whose event was then not written (a duplicate id, a conflict) is harmless: the purge
 * deletes the event key it names, whether or not an event is there. Other accounts list nothing.
 */
export async function insertEvents(
  events: readonly TimelineEvent[],
  options: { listed?: boolean } = {},
): Promise<InsertEventsOutcome> {
  if (events.length === 0) return { outcome: 'created' };
  if (events.length > maxEventsPerWrite) throw new Error(`at most ${maxEventsPerWrite} events per write`);
  if (options.listed)
    await batchPutAll(
      events.map((event) => ({ ...timelineEventListingKey(event.portalId, event.eventTypeId, event.id) })),
    );
  const [first] = events;
  if (events.length === 1 && first) {
    // putNew tells the SDK's retry of our own put (after a lost answer) from another request's event.
    return (await putNew(eventItem(first))) ? { outcome: 'created' } : { outcome: 'duplicate', indexes: [0] };
  }
  const outcome = await transact(
    events.map((event, index) => ({
      role: index,
      write: { Put: { TableName: tableName, Item: eventItem(event), ConditionExpression: 'attribute_not_exists(pk)' } },
    })),
  );
  if (outcome.committed) return { outcome: 'created' };
  const indexes = outcome.reasons
    .filter((reason) => reason.code === 'ConditionalCheckFailed')
    .map((reason) => reason.role);
  if (indexes.length > 0) return { outcome: 'duplicate', indexes };
  if (outcome.reasons.some((reason) => reason.code === 'TransactionConflict')) return { outcome: 'conflict' };
  throw outcome.error;
}

/** The event of this id in one account (hub); another account's event of the same id is another item. */
export async function findEvent(
  hubId: number,
  eventTypeId: number,
  eventId: string,
): Promise<TimelineEvent | undefined> {
  const item = await getItem(timelineEventKey(hubId, eventTypeId, eventId));
  return item ? recordOf(eventEntity, item) : undefined;
}

/**
 * Which of these record ids of a type exist, unarchived, in the hub. Reads the record items the
 * objects API writes (at recordKey, with an `archived` flag).
 */
export async function findActiveRecordIds(
  type: Pick<KeyedType, 'keyPrefix'>,
  hubId: number,
  ids: readonly string[],
): Promise<Set<string>> {
  const active = new Set<string>();
  const idBySortKey = new Map(ids.map((id) => [recordKey(type, hubId, id).sk, id]));
  for (const item of await batchGetAll(
    ids.map((id) => recordKey(type, hubId, id)),
    { attributes: ['archived'] },
  )) {
    const id = typeof item.sk === 'string' ? idBySortKey.get(item.sk) : undefined;
    if (id !== undefined && item.archived !== true) active.add(id);
  }
  return active;
}
