import {
  BatchGetCommand, BatchWriteCommand, DeleteCommand, GetCommand, PutCommand, QueryCommand, TransactWriteCommand,
} from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { putNewItem } from './put-new-item';
import { cancellationReasons, isConditionalCheckFailed } from './item';
import {
  appPartition, companyKey, timelineEventKey, timelineEventTypeKey, timelinePropertyKey, timelinePropertyNameKey,
  timelineTypePrefix, timelineTypesPrefix, type Key,
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

type Item = Record<string, unknown>;

const entity = { type: 'timelineEventType', property: 'timelineEventTypeProperty', nameClaim: 'timelinePropertyName', event: 'timelineEvent' } as const;

function toEventType(item: Item): EventType {
  return {
    id: item.id as number, name: item.name as string,
    headerTemplate: (item.headerTemplate as string | undefined) ?? null, detailTemplate: (item.detailTemplate as string | undefined) ?? null,
    objectType: item.objectType as TimelineObjectType, applicationId: item.applicationId as number,
  };
}

function toProperty(item: Item): EventTypeProperty {
  return {
    id: item.id as number, eventTypeId: item.eventTypeId as number, name: item.name as string, label: item.label as string,
    propertyType: item.propertyType as TimelinePropertyType,
    ...(typeof item.objectProperty === 'string' ? { objectProperty: item.objectProperty } : {}),
    options: (item.options as EventTypePropertyOption[] | undefined) ?? null,
  };
}

function toEvent(item: Item): TimelineEvent {
  return {
    id: item.id as string, applicationId: item.applicationId as number, portalId: item.portalId as number,
    eventTypeId: item.eventTypeId as number, objectType: item.objectType as TimelineObjectType, objectId: item.objectId as number,
    timestamp: item.timestamp as number, fields: (item.fields as Record<string, string> | undefined) ?? {},
    ...(typeof item.extraDataJson === 'string' ? { extraDataJson: item.extraDataJson } : {}),
    ...(typeof item.timelineIFrameJson === 'string' ? { timelineIFrameJson: item.timelineIFrameJson } : {}),
  };
}

function eventTypeItem(type: EventType): Item {
  return { ...timelineEventTypeKey(type.applicationId, type.id), entity: entity.type, ...type };
}

function propertyItem(appId: number, property: EventTypeProperty): Item {
  return { ...timelinePropertyKey(appId, property.eventTypeId, property.id), entity: entity.property, ...property };
}

/** The stored form of an event; its JSON size is what the size checks measure. */
export function eventItem(event: TimelineEvent): Item {
  return { ...timelineEventKey(event.portalId, event.eventTypeId, event.id), entity: entity.event, ...event };
}

async function queryAll(pk: string, skPrefix: string): Promise<Item[]> {
  const items: Item[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(new QueryCommand({
      TableName: tableName, KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix }, ConsistentRead: true, ExclusiveStartKey: startKey,
    }));
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}

export async function insertEventType(type: EventType): Promise<void> {
  // The id comes from a sequence, so an existing item can only be another writer's bug, never a client's input.
  if (!(await putNewItem(eventTypeItem(type)))) throw new Error(`event type ${type.id} of app ${type.applicationId} already exists`);
}

export async function findEventType(appId: number, eventTypeId: number): Promise<EventType | undefined> {
  const result = await db.send(new GetCommand({ TableName: tableName, Key: timelineEventTypeKey(appId, eventTypeId), ConsistentRead: true }));
  return result.Item ? toEventType(result.Item) : undefined;
}

export async function listEventTypes(appId: number): Promise<EventType[]> {
  const items = await queryAll(appPartition(appId), timelineTypesPrefix);
  return items.filter((item) => item.entity === entity.type).map(toEventType).sort((a, b) => a.id - b.id);
}

/** Returns false when the event type does not exist (nothing is written then). */
export async function replaceEventType(type: EventType): Promise<boolean> {
  try {
    await db.send(new PutCommand({ TableName: tableName, Item: eventTypeItem(type), ConditionExpression: 'attribute_exists(pk)' }));
    return true;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return false;
    throw error;
  }
}

/**
 * Deletes the type first (conditionally, so a missing one is reported), which makes it invisible at
 * once; then its properties and name claims. Property writes check that the type exists, so none can
 * slip in afterwards. Events stay stored but cannot be read any more: reads need their type.
 */
export async function deleteEventType(appId: number, eventTypeId: number): Promise<boolean> {
  try {
    await db.send(new DeleteCommand({ TableName: tableName, Key: timelineEventTypeKey(appId, eventTypeId), ConditionExpression: 'attribute_exists(pk)' }));
  } catch (error) {
    if (isConditionalCheckFailed(error)) return false;
    throw error;
  }
  const rest = await queryAll(appPartition(appId), timelineTypePrefix(eventTypeId));
  for (let start = 0; start < rest.length; start += 25) {
    let requests = rest.slice(start, start + 25).map((item) => ({ DeleteRequest: { Key: { pk: item.pk, sk: item.sk } } }));
    while (requests.length > 0) {
      const result = await db.send(new BatchWriteCommand({ RequestItems: { [tableName]: requests } }));
      requests = (result.UnprocessedItems?.[tableName] ?? []) as typeof requests;
    }
  }
  return true;
}

/** The type and its properties in one strongly consistent query. */
export async function findEventTypeWithProperties(appId: number, eventTypeId: number): Promise<{ type: EventType; properties: EventTypeProperty[] } | undefined> {
  const items = await queryAll(appPartition(appId), timelineTypePrefix(eventTypeId));
  const typeItem = items.find((item) => item.entity === entity.type);
  if (!typeItem) return undefined;
  const properties = items.filter((item) => item.entity === entity.property).map(toProperty).sort((a, b) => a.id - b.id);
  return { type: toEventType(typeItem), properties };
}

export async function findProperty(appId: number, eventTypeId: number, propertyId: number): Promise<EventTypeProperty | undefined> {
  const result = await db.send(new GetCommand({ TableName: tableName, Key: timelinePropertyKey(appId, eventTypeId, propertyId), ConsistentRead: true }));
  return result.Item ? toProperty(result.Item) : undefined;
}

export type InsertPropertyOutcome = 'created' | 'type-missing' | 'name-taken';

/** One transaction: the type must exist, and the name claim makes names unique even when requests race. */
export async function insertProperty(appId: number, property: EventTypeProperty): Promise<InsertPropertyOutcome> {
  try {
    await db.send(new TransactWriteCommand({
      TransactItems: [
        { ConditionCheck: { TableName: tableName, Key: timelineEventTypeKey(appId, property.eventTypeId), ConditionExpression: 'attribute_exists(pk)' } },
        { Put: { TableName: tableName, Item: propertyItem(appId, property), ConditionExpression: 'attribute_not_exists(pk)' } },
        { Put: {
          TableName: tableName,
          Item: { ...timelinePropertyNameKey(appId, property.eventTypeId, property.name), entity: entity.nameClaim, propertyId: property.id },
          ConditionExpression: 'attribute_not_exists(pk)',
        } },
      ],
    }));
    return 'created';
  } catch (error) {
    const reasons = cancellationReasons(error);
    if (reasons?.[0] === 'ConditionalCheckFailed') return 'type-missing';
    if (reasons?.[2] === 'ConditionalCheckFailed') return 'name-taken';
    throw error;
  }
}

/** Replaces a property whose name is unchanged; false when it no longer exists. */
export async function replaceProperty(appId: number, property: EventTypeProperty): Promise<boolean> {
  try {
    await db.send(new PutCommand({
      TableName: tableName, Item: propertyItem(appId, property),
      ConditionExpression: 'attribute_exists(pk) AND #name = :name',
      ExpressionAttributeNames: { '#name': 'name' }, ExpressionAttributeValues: { ':name': property.name },
    }));
    return true;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return false;
    throw error;
  }
}

/** Deletes the property and its name claim together; false when the property does not exist. */
export async function deleteProperty(appId: number, property: EventTypeProperty): Promise<boolean> {
  try {
    await db.send(new TransactWriteCommand({
      TransactItems: [
        { Delete: { TableName: tableName, Key: timelinePropertyKey(appId, property.eventTypeId, property.id), ConditionExpression: 'attribute_exists(pk)' } },
        { Delete: { TableName: tableName, Key: timelinePropertyNameKey(appId, property.eventTypeId, property.name) } },
      ],
    }));
    return true;
  } catch (error) {
    if (cancellationReasons(error)?.[0] === 'ConditionalCheckFailed') return false;
    throw error;
  }
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
 */
export async function insertEvents(events: readonly TimelineEvent[]): Promise<InsertEventsOutcome> {
  if (events.length === 0) return { outcome: 'created' };
  if (events.length > maxEventsPerWrite) throw new Error(`at most ${maxEventsPerWrite} events per write`);
  const [first] = events;
  if (events.length === 1 && first) {
    // putNewItem tells the SDK's retry of our own put (after a lost answer) from another request's event.
    return (await putNewItem(eventItem(first))) ? { outcome: 'created' } : { outcome: 'duplicate', indexes: [0] };
  }
  try {
    await db.send(new TransactWriteCommand({
      TransactItems: events.map((event) => ({ Put: { TableName: tableName, Item: eventItem(event), ConditionExpression: 'attribute_not_exists(pk)' } })),
    }));
    return { outcome: 'created' };
  } catch (error) {
    const reasons = cancellationReasons(error);
    if (!reasons) throw error;
    const indexes = events.map((_, index) => index).filter((index) => reasons[index] === 'ConditionalCheckFailed');
    if (indexes.length > 0) return { outcome: 'duplicate', indexes };
    if (reasons.includes('TransactionConflict')) return { outcome: 'conflict' };
    throw error;
  }
}

/** The event of this id in one account (hub); another account's event of the same id is another item. */
export async function findEvent(hubId: number, eventTypeId: number, eventId: string): Promise<TimelineEvent | undefined> {
  const result = await db.send(new GetCommand({ TableName: tableName, Key: timelineEventKey(hubId, eventTypeId, eventId), ConsistentRead: true }));
  return result.Item ? toEvent(result.Item) : undefined;
}

/**
 * Which of these company ids exist, unarchived, in the hub. Reads the company records the companies
 * API writes (at companyKey, with an `archived` flag).
 */
export async function findActiveCompanyIds(hubId: number, companyIds: readonly string[]): Promise<Set<string>> {
  const active = new Set<string>();
  const unique = [...new Set(companyIds)];
  const idBySortKey = new Map(unique.map((id) => [companyKey(hubId, id).sk, id]));
  for (let start = 0; start < unique.length; start += 100) {
    let keys: Key[] = unique.slice(start, start + 100).map((id) => companyKey(hubId, id));
    while (keys.length > 0) {
      const result = await db.send(new BatchGetCommand({
        RequestItems: { [tableName]: { Keys: keys, ConsistentRead: true, ProjectionExpression: 'sk, archived' } },
      }));
      for (const item of result.Responses?.[tableName] ?? []) {
        const id = typeof item.sk === 'string' ? idBySortKey.get(item.sk) : undefined;
        if (id !== undefined && item.archived !== true) active.add(id);
      }
      keys = (result.UnprocessedKeys?.[tableName]?.Keys ?? []) as Key[];
    }
  }
  return active;
}
