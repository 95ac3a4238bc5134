import {
  batchDeleteAll,
  getItem,
  queryAll,
  queryPage,
  transact,
  type RoleWrite,
  type TransactItem,
  type Entity,
  itemOf,
  recordOf,
} from './core';
import { tableName } from './client';
import { countChange } from './counters';
import {
  hubCounterKey,
  hubPartition,
  objectSchemaKey,
  objectSchemaNameKey,
  objectSchemaPrefix,
  type Key,
  type KeyedType,
} from './keys';
import { closedForGood, closeRecordCountWrites, reopenRecordCountWrites } from './order-index';

/** One association definition of a schema: the type id (`id`) from the schema's type to another, and its inverse's. */
export interface SchemaAssociation {
  id: string;
  fromObjectTypeId: string;
  toObjectTypeId: string;
  name: string;
  /** The association type id of the other direction (the same id for a definition from the type to itself). */
  inverseId: string;
  createdAt: string;
  updatedAt: string;
}

/** A custom object schema as stored: the ObjectSchema of the API without its properties (those are the type's property items). */
export interface StoredObjectSchema {
  /** Digits: the type id is `2-<id>`. */
  id: string;
  name: string;
  labels: { singular?: string; plural?: string };
  description?: string;
  requiredProperties: string[];
  searchableProperties: string[];
  primaryDisplayProperty?: string;
  secondaryDisplayProperties: string[];
  associations: SchemaAssociation[];
  /** Definitions archived since: their association types stay (archived) until the schema is deleted for good. */
  archivedAssociations?: SchemaAssociation[];
  archived: boolean;
  archivedAt?: string;
  createdAt: string;
  updatedAt: string;
  createdByUserId?: number;
  updatedByUserId?: number;
  /** Moves with every change, so a change checked against the schema as read fails when another came between. */
  revision: number;
}

const schemaItem: Entity<StoredObjectSchema, number> = {
  key: (schema, hubId) => objectSchemaKey(hubId, schema.id),
};

/** How many schemas a hub has (archived ones count until deleted for good): the item whose condition holds the cap. */
const schemaCountKey = (hubId: number): Key => hubCounterKey(hubId, 'objectSchemas');

/** Every schema of a hub, live and archived (one Query; a hub has at most a handful). */
export async function listObjectSchemas(hubId: number): Promise<StoredObjectSchema[]> {
  return (await queryAll(hubPartition(hubId), objectSchemaPrefix)).map((item) => recordOf(schemaItem, item));
}

/** How many schemas the hub's count item holds (archived ones count until deleted for good): one GetItem. */
export async function readSchemaCount(hubId: number): Promise<number> {
  const item = await getItem(schemaCountKey(hubId), false);
  return typeof item?.value === 'number' ? item.value : 0;
}

export async function findObjectSchema(hubId: number, id: string): Promise<StoredObjectSchema | undefined> {
  const item = await getItem(objectSchemaKey(hubId, id));
  return item ? recordOf(schemaItem, item) : undefined;
}

export type InsertSchemaOutcome = 'created' | 'name-taken' | 'too-many' | 'contended';

/**
 * Stores a new schema with everything it defines (`alongside`: its property groups and definitions,
 * its association types) in one transaction, with the claim of its name and the hub's schema count,
 * whose condition holds the cap however many creates race.
 */
export async function insertObjectSchema(
  hubId: number,
  schema: StoredObjectSchema,
  maxSchemas: number,
  alongside: readonly TransactItem[],
): Promise<InsertSchemaOutcome> {
  const writes: RoleWrite<'count' | 'schema' | 'name' | 'alongside'>[] = [
    {
      role: 'count',
      write: countChange({ key: schemaCountKey(hubId), attribute: 'value', delta: 1, max: maxSchemas }),
    },
    {
      role: 'schema',
      write: {
        Put: {
          TableName: tableName,
          Item: itemOf(schemaItem, schema, hubId),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    },
    {
      role: 'name',
      write: {
        Put: {
          TableName: tableName,
          Item: { ...objectSchemaNameKey(hubId, schema.name), schemaId: schema.id },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    },
    ...alongside.map((write) => ({ role: 'alongside' as const, write })),
  ];
  const outcome = await transact(writes);
  if (outcome.committed) return 'created';
  const failed = new Set(
    outcome.reasons.filter((reason) => reason.code === 'ConditionalCheckFailed').map((reason) => reason.role),
  );
  if (failed.has('name')) return 'name-taken';
  if (failed.has('count')) return 'too-many';
  if (outcome.reasons.some((reason) => reason.code === 'TransactionConflict')) return 'contended';
  throw outcome.error;
}

/** The write that replaces a schema as read (its revision unchanged since), moving its revision; `alongside` joins the transaction. */
export function replaceSchemaWrite(hubId: number, schema: StoredObjectSchema, readRevision: number): TransactItem {
  return {
    Put: {
      TableName: tableName,
      Item: itemOf(schemaItem, { ...schema, revision: readRevision + 1 }, hubId),
      ConditionExpression: 'attribute_exists(pk) AND revision = :read',
      ExpressionAttributeValues: { ':read': readRevision },
    },
  };
}

/** Replaces a schema as read, with other writes in the same transaction: false when the schema changed since (or a write of `alongside` was refused). */
export async function replaceObjectSchema(
  hubId: number,
  schema: StoredObjectSchema,
  readRevision: number,
  alongside: readonly TransactItem[] = [],
): Promise<boolean> {
  const outcome = await transact([
    { role: 'schema', write: replaceSchemaWrite(hubId, schema, readRevision) },
    ...alongside.map((write) => ({ role: 'alongside', write })),
  ]);
  if (outcome.committed) return true;
  if (
    outcome.reasons.every((reason) => reason.code === 'ConditionalCheckFailed' || reason.code === 'TransactionConflict')
  )
    return false;
  throw outcome.error;
}

export type SchemaCloseOutcome = 'done' | 'changed' | 'contended';

/** A transaction of a schema and its type's counters: 'changed' when a condition failed, 'contended' on a conflict. */
async function transactSchema(writes: RoleWrite<'schema' | 'count'>[]): Promise<SchemaCloseOutcome> {
  const outcome = await transact(writes);
  if (outcome.committed) return 'done';
  if (outcome.reasons.some((reason) => reason.code === 'ConditionalCheckFailed')) return 'changed';
  if (outcome.reasons.some((reason) => reason.code === 'TransactionConflict')) return 'contended';
  throw outcome.error;
}

/**
 * Closes the records of a live schema's type until `until` (order-index.ts closedUntilAttribute),
 * checked against the schema as read: from its commit on, no create of the type commits. One
 * transaction of the schema's check and the type's counters.
 */
export function closeSchemaRecords(
  hubId: number,
  schema: StoredObjectSchema,
  type: KeyedType,
  until: number,
  now: number,
): Promise<SchemaCloseOutcome> {
  return transactSchema([
    {
      role: 'schema',
      write: {
        ConditionCheck: {
          TableName: tableName,
          Key: objectSchemaKey(hubId, schema.id),
          ConditionExpression: 'revision = :read AND archived = :false',
          ExpressionAttributeValues: { ':read': schema.revision, ':false': false },
        },
      },
    },
    ...closeRecordCountWrites(type, hubId, until, now).map((write) => ({ role: 'count' as const, write })),
  ]);
}

/** Archives a schema whose records this caller closed (`held`, its closing): the schema and its counters closed for good, together. */
export function archiveClosedSchema(
  hubId: number,
  archived: StoredObjectSchema,
  readRevision: number,
  type: KeyedType,
  held: number,
  now: number,
): Promise<SchemaCloseOutcome> {
  return transactSchema([
    { role: 'schema', write: replaceSchemaWrite(hubId, archived, readRevision) },
    ...closeRecordCountWrites(type, hubId, closedForGood, now, held).map((write) => ({
      role: 'count' as const,
      write,
    })),
  ]);
}

/** Opens a type's records again where they still hold the closing `held` ('changed': another closing replaced it once it lapsed). */
export function reopenSchemaRecords(hubId: number, type: KeyedType, held: number): Promise<SchemaCloseOutcome> {
  return transactSchema(reopenRecordCountWrites(type, hubId, held).map((write) => ({ role: 'count' as const, write })));
}

/** Whether any active record has this key prefix (one item read at most). */
export async function hasActiveRecords(hubId: number, recordPrefix: string): Promise<boolean> {
  const page = await queryPage({ pk: hubPartition(hubId), skPrefix: recordPrefix, pageSize: 1, projection: 'pk' });
  return page.items.length > 0;
}

/**
 * Deletes an archived schema for good: the schema, its name claim (the name can be taken again)
 * and its place in the count, in one transaction checked against the schema as read; then the items
 * of what it defined (`definedKeys`: its property catalog and association types), which nothing can
 * reach any more, since the type id is never handed out again. False when the schema changed since.
 */
export async function deleteObjectSchema(
  hubId: number,
  schema: StoredObjectSchema,
  definedKeys: readonly Key[],
): Promise<boolean> {
  const outcome = await transact([
    {
      role: 'schema',
      write: {
        Delete: {
          TableName: tableName,
          Key: objectSchemaKey(hubId, schema.id),
          ConditionExpression: 'revision = :read AND archived = :true',
          ExpressionAttributeValues: { ':read': schema.revision, ':true': true },
        },
      },
    },
    { role: 'name', write: { Delete: { TableName: tableName, Key: objectSchemaNameKey(hubId, schema.name) } } },
    {
      role: 'count',
      write: countChange({ key: schemaCountKey(hubId), attribute: 'value', delta: -1, neverBelowZero: true }),
    },
  ]);
  if (!outcome.committed) {
    if (
      outcome.reasons.every(
        (reason) => reason.code === 'ConditionalCheckFailed' || reason.code === 'TransactionConflict',
      )
    )
      return false;
    throw outcome.error;
  }
  await batchDeleteAll(definedKeys);
  return true;
}
