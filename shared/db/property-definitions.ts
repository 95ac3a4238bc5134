import { createHash } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { catalogConflictRetryPolicy, conflicted, retryOnConflict } from '../base/retry';
import { tableName } from './client';
import {
  batchGetAll,
  conditionalWrite,
  getItem,
  itemBytes,
  maxItemBytes,
  putNew,
  queryAll,
  transact,
  type Item,
  type RoleWrite,
  type TransactItem,
  type Entity,
  itemOf,
  recordOf,
} from './core';
import {
  hubCounterKey,
  hubPartition,
  propertyGroupKey,
  propertyGroupPrefix,
  propertyKey,
  propertyLabelKey,
  propertyLabelPrefix,
  propertyPrefix,
  type Key,
  type KeyedType,
} from './keys';

/** A property definition of CRM v3 (HubSpot's Property model): the stored record is the shape the API returns. */
export const propertyTypes = ['string', 'number', 'date', 'datetime', 'enumeration', 'bool', 'phone_number'] as const;
export type PropertyType = (typeof propertyTypes)[number];

export const fieldTypes = [
  'text',
  'textarea',
  'number',
  'date',
  'select',
  'radio',
  'checkbox',
  'booleancheckbox',
  'phonenumber',
  'file',
  'html',
  // HubSpot-defined properties only (checkNewProperty refuses them for custom ones): hs_is_contact reads calculation_read_time.
  'calculation_equation',
  'calculation_rollup',
  'calculation_read_time',
] as const;
export type FieldType = (typeof fieldTypes)[number];

export interface PropertyOption {
  label: string;
  value: string;
  displayOrder: number;
  hidden: boolean;
  description?: string;
}

export interface PropertyDefinition {
  name: string;
  label: string;
  type: PropertyType;
  fieldType: FieldType;
  description: string;
  groupName: string;
  options: PropertyOption[];
  displayOrder: number;
  calculated: boolean;
  externalOptions: boolean;
  hasUniqueValue: boolean;
  hidden: boolean;
  hubspotDefined?: boolean;
  formField: boolean;
  dataSensitivity: 'non_sensitive';
  modificationMetadata: { archivable: boolean; readOnlyDefinition: boolean; readOnlyValue: boolean };
  referencedObjectType?: string;
  archived: boolean;
  archivedAt?: string;
  createdAt?: string;
  updatedAt?: string;
  createdUserId?: string;
  updatedUserId?: string;
}

/** A property group (PropertyGroup of the v3 properties API); updatedAt and revision are bookkeeping, not sent. */
export interface PropertyGroup {
  name: string;
  label: string;
  displayOrder: number;
  archived: boolean;
  updatedAt?: string;
  /**
   * Moves with every property write into the group, so a change of the group checked against the
   * group as read (archiving: "no live property uses it") fails when a property moved in meanwhile.
   */
  revision?: number;
}

const propertyItem: Entity<PropertyDefinition, { type: KeyedType; hubId: number }> = {
  key: (definition, { type, hubId }) => propertyKey(type, hubId, definition.name),
};
const groupItem: Entity<PropertyGroup, { type: KeyedType; hubId: number }> = {
  key: (group, { type, hubId }) => propertyGroupKey(type, hubId, group.name),
};

/** The most one definition's item may take (core.maxItemBytes). */
export const maxPropertyItemBytes = maxItemBytes;

/** What a definition's item takes in the table (core.itemBytes), to refuse one that cannot be stored before writing. */
export function propertyItemBytes(type: KeyedType, hubId: number, definition: PropertyDefinition): number {
  return itemBytes(itemOf(propertyItem, definition, { type, hubId }));
}

/** The caps of a hub's custom catalog, held by its count item (archived definitions count: their names stay taken). */
export interface CatalogLimits {
  definitions: number;
  uniqueDefinitions: number;
}

/** A label as labels are compared for uniqueness within a type: trimmed and lower-cased. */
export function comparableLabel(label: string): string {
  return label.trim().toLowerCase();
}

/**
 * The claim item of a label: one per label (as compared) per type, naming the definition that
 * holds it. Written in the transaction that creates the definition or moves its label there, and
 * deleted in the one that archives it or moves its label away, so no two live definitions of a type
 * can commit one label (a custom object type's schema writes its properties' claims with them). A
 * definition stored without a claim (one written before claims existed) has its label guarded by
 * the catalog every create and label change reads.
 */
function labelClaimKey(type: KeyedType, hubId: number, label: string): Key {
  return propertyLabelKey(type, hubId, createHash('sha256').update(comparableLabel(label)).digest('base64url'));
}

function claimLabelWrite(
  type: KeyedType,
  hubId: number,
  definition: Pick<PropertyDefinition, 'name' | 'label'>,
): TransactItem {
  return {
    Put: {
      TableName: tableName,
      Item: { ...labelClaimKey(type, hubId, definition.label), propertyName: definition.name, label: definition.label },
      ConditionExpression: 'attribute_not_exists(pk) OR propertyName = :name',
      ExpressionAttributeValues: { ':name': definition.name },
    },
  };
}

/** Frees a label the definition holds; passes when there is no claim (a definition stored without one). */
function releaseLabelWrite(type: KeyedType, hubId: number, name: string, label: string): TransactItem {
  return {
    Delete: {
      TableName: tableName,
      Key: labelClaimKey(type, hubId, label),
      ConditionExpression: 'attribute_not_exists(pk) OR propertyName = :name',
      ExpressionAttributeValues: { ':name': name },
    },
  };
}

export type InsertPropertyOutcome =
  | 'created'
  | 'name-taken'
  | 'label-taken'
  | 'group-missing'
  | 'too-many'
  | 'too-many-unique'
  | 'contended';

/** Per type: `companyProperties`, `contactProperties`, ... */
const catalogCountKey = (type: KeyedType, hubId: number) =>
  hubCounterKey(hubId, `${type.keyPrefix.toLowerCase()}Properties`);

/**
 * How many custom property definitions each type's catalog holds (archived ones count: their names
 * stay taken), from each type's count item: one BatchGetItem per 100 types, eventually consistent.
 * A type without a count item has no custom definitions (every definition is written with it).
 */
export async function readCustomPropertyCounts(
  hubId: number,
  types: readonly KeyedType[],
): Promise<Map<string, number>> {
  const typeOfSk = new Map(types.map((type) => [catalogCountKey(type, hubId).sk, type.id]));
  const counts = new Map<string, number>(types.map((type) => [type.id, 0]));
  const items = await batchGetAll(
    types.map((type) => catalogCountKey(type, hubId)),
    { attributes: ['definitions'], consistent: false },
  );
  for (const item of items) {
    const typeId = typeOfSk.get(String(item.sk));
    if (typeId !== undefined && typeof item.definitions === 'number') counts.set(typeId, item.definitions);
  }
  return counts;
}

/** Keeps a custom group live for the write it joins, and moves its revision (see PropertyGroup.revision). */
function groupMembershipWrite(type: KeyedType, hubId: number, groupName: string): TransactItem {
  return {
    Update: {
      TableName: tableName,
      Key: propertyGroupKey(type, hubId, groupName),
      UpdateExpression: 'ADD revision :one',
      ConditionExpression: 'attribute_exists(pk) AND archived = :false',
      ExpressionAttributeValues: { ':one': 1, ':false': false },
    },
  };
}

/**
 * Creates a definition in one transaction with the claim of its label and the hub's catalog count
 * item, whose condition holds the caps: concurrent creates cannot pass them or share a label, since
 * each one's count and claim are written in the transaction that writes it. `customGroup` (a group that is not HubSpot-defined) must exist and be live.
 * `catalog` is the hub's definitions as the caller read them: they seed the count when its item
 * does not exist yet (no create has written one: every definition there was read).
 */
export async function insertPropertyDefinition(
  type: KeyedType,
  hubId: number,
  definition: PropertyDefinition,
  limits: CatalogLimits,
  options: { customGroup?: string; catalog: readonly PropertyDefinition[] },
): Promise<InsertPropertyOutcome> {
  const isUnique = definition.hasUniqueValue ? 1 : 0;
  const count: TransactItem = {
    Update: {
      TableName: tableName,
      Key: catalogCountKey(type, hubId),
      UpdateExpression:
        'SET definitions = if_not_exists(definitions, :seed) + :one, uniqueDefinitions = if_not_exists(uniqueDefinitions, :uniqueSeed) + :unique',
      ConditionExpression: `attribute_not_exists(pk) OR (definitions < :maxDefinitions${isUnique ? ' AND uniqueDefinitions < :maxUnique' : ''})`,
      ExpressionAttributeValues: {
        ':one': 1,
        ':unique': isUnique,
        ':seed': options.catalog.length,
        ':uniqueSeed': options.catalog.filter((entry) => entry.hasUniqueValue).length,
        ':maxDefinitions': limits.definitions,
        ...(isUnique ? { ':maxUnique': limits.uniqueDefinitions } : {}),
      },
    },
  };
  const writes: RoleWrite<'property' | 'label' | 'count' | 'group'>[] = [
    {
      role: 'property',
      write: {
        Put: {
          TableName: tableName,
          Item: itemOf(propertyItem, definition, { type, hubId }),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    },
    { role: 'label', write: claimLabelWrite(type, hubId, definition) },
    { role: 'count', write: count },
    ...(options.customGroup === undefined
      ? []
      : [{ role: 'group' as const, write: groupMembershipWrite(type, hubId, options.customGroup) }]),
  ];
  // A transaction conflict (another write holding the count item) is retried a few times.
  return retryOnConflict(
    async () => {
      const outcome = await transact(writes);
      if (outcome.committed) return 'created';
      const failed = new Set(
        outcome.reasons.filter((reason) => reason.code === 'ConditionalCheckFailed').map((reason) => reason.role),
      );
      if (failed.has('property')) return 'name-taken';
      if (failed.has('label')) return 'label-taken';
      if (failed.has('group')) return 'group-missing';
      if (failed.has('count')) {
        // The count item exists and is at a cap: which one decides the answer.
        const counted = await getItem(catalogCountKey(type, hubId));
        return Number(counted?.definitions) >= limits.definitions ? 'too-many' : 'too-many-unique';
      }
      if (!outcome.reasons.some((reason) => reason.code === 'TransactionConflict')) throw outcome.error;
      return conflicted;
    },
    (): InsertPropertyOutcome => 'contended',
    catalogConflictRetryPolicy,
  );
}

/**
 * The writes that store the custom catalog of a type that has none yet (a custom object type's
 * schema, created in one transaction with them): its groups, its definitions with the claims of
 * their labels (the caller checks that no two share one), and the count item seeded with them.
 * Each is new: its condition fails if the item exists.
 */
export function newCatalogWrites(
  type: KeyedType,
  hubId: number,
  groups: readonly PropertyGroup[],
  definitions: readonly PropertyDefinition[],
): TransactItem[] {
  const put = (Item: Record<string, unknown>): TransactItem => ({
    Put: { TableName: tableName, Item, ConditionExpression: 'attribute_not_exists(pk)' },
  });
  return [
    ...groups.map((group) => put(itemOf(groupItem, group, { type, hubId }))),
    ...definitions.map((definition) => put(itemOf(propertyItem, definition, { type, hubId }))),
    ...definitions.map((definition) => claimLabelWrite(type, hubId, definition)),
    put({
      ...catalogCountKey(type, hubId),
      definitions: definitions.length,
      uniqueDefinitions: definitions.filter((definition) => definition.hasUniqueValue).length,
    }),
  ];
}

/** The keys of every item of a type's custom catalog (definitions, groups, label claims, count), live or archived: what a custom type's deletion for good removes. */
export async function catalogKeysOf(type: KeyedType, hubId: number): Promise<Key[]> {
  const [definitions, groups, claims] = await Promise.all([
    queryAll(hubPartition(hubId), propertyPrefix(type)),
    queryAll(hubPartition(hubId), propertyGroupPrefix(type)),
    queryAll(hubPartition(hubId), propertyLabelPrefix(type)),
  ]);
  return [
    ...[...definitions, ...groups, ...claims].map((item) => ({ pk: String(item.pk), sk: String(item.sk) })),
    catalogCountKey(type, hubId),
  ];
}

export async function findPropertyDefinition(
  type: KeyedType,
  hubId: number,
  name: string,
): Promise<PropertyDefinition | undefined> {
  const item = await getItem(propertyKey(type, hubId, name));
  return item ? recordOf(propertyItem, item) : undefined;
}

/** Every custom company property of the hub (archived ones too), in name order. */
export async function listProperties(type: KeyedType, hubId: number): Promise<PropertyDefinition[]> {
  return (await queryAll(hubPartition(hubId), propertyPrefix(type))).map((item) => recordOf(propertyItem, item));
}

/**
 * Replaces an item read earlier; false when another request changed it since (its updatedAt
 * moved) or it is gone.
 */
async function replaceItem(
  item: Item,
  expectedUpdatedAt: string | undefined,
  alsoCondition?: string,
  alsoValues: Item = {},
): Promise<boolean> {
  const outcome = await conditionalWrite(
    new PutCommand({
      TableName: tableName,
      Item: item,
      ConditionExpression: `updatedAt = :expected${alsoCondition ? ` AND ${alsoCondition}` : ''}`,
      ExpressionAttributeValues: { ':expected': expectedUpdatedAt ?? '', ...alsoValues },
    }),
  );
  return outcome.written;
}

export type ReplacePropertyOutcome = 'replaced' | 'stale' | 'group-missing' | 'label-taken';

/** What a replacement does besides the definition: the claims of its label and its group. */
export interface ReplaceEffects {
  /** The label the definition held before, when the replacement changes it as labels compare: its claim moves to the new one. */
  labelFrom?: string;
  /** Archiving: the definition's label is freed. */
  releaseLabel?: boolean;
  /** A custom group the definition moves into, which must exist and be live. */
  movedToGroup?: string;
}

/**
 * Replaces a definition read earlier, checked against its updatedAt then, in one transaction with
 * what `effects` asks for: a moved label's claims (the new one must be free), an archived one's
 * release, a moved-into group's check.
 */
export async function replacePropertyDefinition(
  type: KeyedType,
  hubId: number,
  definition: PropertyDefinition,
  expectedUpdatedAt: string | undefined,
  effects: ReplaceEffects = {},
): Promise<ReplacePropertyOutcome> {
  const { labelFrom, releaseLabel, movedToGroup } = effects;
  if (movedToGroup === undefined && labelFrom === undefined && !releaseLabel)
    return (await replaceItem(itemOf(propertyItem, definition, { type, hubId }), expectedUpdatedAt))
      ? 'replaced'
      : 'stale';
  const released = labelFrom ?? (releaseLabel ? definition.label : undefined);
  const attempt = async (freeing: boolean) =>
    transact<'property' | 'label' | 'release' | 'group'>([
      {
        role: 'property',
        write: {
          Put: {
            TableName: tableName,
            Item: itemOf(propertyItem, definition, { type, hubId }),
            ConditionExpression: 'updatedAt = :expected',
            ExpressionAttributeValues: { ':expected': expectedUpdatedAt ?? '' },
          },
        },
      },
      ...(labelFrom === undefined ? [] : [{ role: 'label' as const, write: claimLabelWrite(type, hubId, definition) }]),
      ...(freeing && released !== undefined
        ? [{ role: 'release' as const, write: releaseLabelWrite(type, hubId, definition.name, released) }]
        : []),
      ...(movedToGroup === undefined
        ? []
        : [{ role: 'group' as const, write: groupMembershipWrite(type, hubId, movedToGroup) }]),
    ]);
  const failedRoles = (result: Awaited<ReturnType<typeof attempt>>) =>
    result.committed
      ? []
      : result.reasons.filter((reason) => reason.code === 'ConditionalCheckFailed').map((reason) => reason.role);
  let outcome = await attempt(true);
  let failed = failedRoles(outcome);
  // The old label's claim names another definition (two definitions stored with one label before
  // claims existed): it is that one's, so this write goes ahead without freeing it.
  if (failed.length === 1 && failed[0] === 'release') {
    outcome = await attempt(false);
    failed = failedRoles(outcome);
  }
  if (outcome.committed) return 'replaced';
  if (failed.includes('property') || outcome.reasons.some((reason) => reason.code === 'TransactionConflict'))
    return 'stale';
  if (failed.includes('label')) return 'label-taken';
  if (failed.includes('group')) return 'group-missing';
  throw outcome.error;
}

export async function insertPropertyGroup(type: KeyedType, hubId: number, group: PropertyGroup): Promise<boolean> {
  return putNew(itemOf(groupItem, group, { type, hubId }));
}

export async function findPropertyGroup(
  type: KeyedType,
  hubId: number,
  name: string,
): Promise<PropertyGroup | undefined> {
  const item = await getItem(propertyGroupKey(type, hubId, name));
  return item ? recordOf(groupItem, item) : undefined;
}

export async function listPropertyGroups(type: KeyedType, hubId: number): Promise<PropertyGroup[]> {
  return (await queryAll(hubPartition(hubId), propertyGroupPrefix(type))).map((item) => recordOf(groupItem, item));
}

/** Replaces a group read earlier; false when it changed since (its updatedAt, or its revision: a property moved in). */
export async function replacePropertyGroup(
  type: KeyedType,
  hubId: number,
  group: PropertyGroup,
  expected: Pick<PropertyGroup, 'updatedAt' | 'revision'>,
): Promise<boolean> {
  const revision = expected.revision === undefined ? 'attribute_not_exists(revision)' : 'revision = :revision';
  return replaceItem(
    itemOf(groupItem, group, { type, hubId }),
    expected.updatedAt,
    revision,
    expected.revision === undefined ? {} : { ':revision': expected.revision },
  );
}
