import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { ConflictError } from '../base/errors';
import { catalogConflictRetryPolicy, conflicted, retryOnConflict } from '../base/retry';
import {
  ExpressionPlaceholders,
  getItem,
  queryAll,
  transact,
  type RoleWrite,
  type TransactItem,
  type Entity,
  itemOf,
  recordOf,
} from './core';
import {
  associationLabelKey,
  associationLabelNamesKey,
  associationLabelNamesPrefix,
  associationLabelPrefix,
  associationTypeKey,
  hubCounterKey,
  hubPartition,
} from './keys';

export type AssociationCategory = 'HUBSPOT_DEFINED' | 'USER_DEFINED';

/** One direction of an association type: from one object type to another. */
export interface AssociationType {
  typeId: number;
  category: AssociationCategory;
  fromObjectTypeId: string;
  toObjectTypeId: string;
  /** Null for unlabeled types, as the labels API returns them. */
  label: string | null;
  /** The v3 `type` string of an association result, e.g. company_to_contact_unlabeled. */
  name: string;
  /** The type of the same association seen from the other record. */
  inverseTypeId: number;
  inverseName: string;
  /** A primary type also implies this unlabeled type (DOC-ASSOC). */
  impliesTypeId?: number;
  /** A deleted custom label: kept so stored associations of the type still read (as the pair's unlabeled type). */
  archived?: boolean;
}

/** A custom type is stored twice: listed per object pair (label item) and found by id alone (type item). */
const labelItem: Entity<AssociationType, number> = {
  key: (type, hubId) => associationLabelKey(hubId, type.fromObjectTypeId, type.toObjectTypeId, type.typeId),
};
const typeItem: Entity<AssociationType, number> = {
  key: (type, hubId) => associationTypeKey(hubId, type.typeId),
};

/** Custom type ids start above every standard id, so the two can never meet. */
const firstCustomTypeId = 1000;

export async function listCustomAssociationTypes(
  hubId: number,
  fromObjectTypeId: string,
  toObjectTypeId: string,
): Promise<AssociationType[]> {
  const found = (await queryAll(hubPartition(hubId), associationLabelPrefix(fromObjectTypeId, toObjectTypeId))).map(
    (item) => recordOf(labelItem, item),
  );
  return found.sort((a, b) => a.typeId - b.typeId);
}

export async function findCustomAssociationType(hubId: number, typeId: number): Promise<AssociationType | undefined> {
  const item = await getItem(associationTypeKey(hubId, typeId));
  return item ? recordOf(typeItem, item) : undefined;
}

/** Reserves `count` consecutive type ids of the hub and returns the first. */
export async function allocateAssociationTypeIds(hubId: number, count: number): Promise<number> {
  const result = await db.send(
    new UpdateCommand({
      TableName: tableName,
      Key: hubCounterKey(hubId, 'associationTypeId'),
      UpdateExpression: 'SET #v = if_not_exists(#v, :start) + :count',
      ExpressionAttributeNames: { '#v': 'value' },
      ExpressionAttributeValues: { ':start': firstCustomTypeId - 1, ':count': count },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const last = result.Attributes?.value;
  if (typeof last !== 'number') throw new Error('association type counter returned no value');
  return last - count + 1;
}

/** The live custom label names of one object pair, as its names item lists them. */
export interface PairLabelNames {
  fromObjectTypeId: string;
  toObjectTypeId: string;
  names: string[];
}

/**
 * The names items of the hub's object pairs (one per pair that has had a custom label), those from
 * `fromObjectTypeId` when given: one Query of the names items alone (a page per 1 MB, one item per
 * pair). Names sorted; a pair whose labels are all gone lists none.
 */
export async function listPairLabelNames(hubId: number, fromObjectTypeId?: string): Promise<PairLabelNames[]> {
  const prefix = `${associationLabelNamesPrefix}${fromObjectTypeId === undefined ? '' : `${fromObjectTypeId}#`}`;
  return (await queryAll(hubPartition(hubId), prefix)).flatMap((item) => {
    const [from, to] = String(item.sk).slice(associationLabelNamesPrefix.length).split('#');
    if (from === undefined || to === undefined) return [];
    const names = [...((item.names as Set<string> | undefined) ?? [])].sort();
    return [{ fromObjectTypeId: from, toObjectTypeId: to, names }];
  });
}

/** One object pair's listing: the live label names it holds, and those a write adds and removes. */
interface PairNames {
  from: string;
  to: string;
  add: string[];
  remove: string[];
}

/** The names each pair's listing gains and loses when these types are written (added) or deleted. */
function pairNamesOf(types: readonly AssociationType[], change: 'add' | 'remove'): PairNames[] {
  const pairs = new Map<string, PairNames>();
  for (const type of types) {
    const key = `${type.fromObjectTypeId}#${type.toObjectTypeId}`;
    const pair = pairs.get(key) ?? { from: type.fromObjectTypeId, to: type.toObjectTypeId, add: [], remove: [] };
    pair[change].push(type.name);
    pairs.set(key, pair);
  }
  return [...pairs.values()];
}

/**
 * The write of one pair's names item, from the item as read (undefined: it does not exist, because
 * the pair's labels predate it: it is seeded from the live label items). Its condition makes the
 * names unique and holds the cap however many requests race; 'name-taken' and 'too-many' when what
 * was read already refuses the change.
 */
async function pairNamesWrite(
  hubId: number,
  pair: PairNames,
  maxNames: number,
): Promise<TransactItem | 'name-taken' | 'too-many'> {
  const key = associationLabelNamesKey(hubId, pair.from, pair.to);
  const stored = await getItem(key);
  const current = stored
    ? new Set((stored.names as Set<string> | undefined) ?? [])
    : new Set(
        (await listCustomAssociationTypes(hubId, pair.from, pair.to))
          .filter((type) => !type.archived)
          .map((type) => type.name),
      );
  if (pair.add.some((name) => current.has(name))) return 'name-taken';
  if (pair.add.length > 0 && current.size + pair.add.length > maxNames) return 'too-many';
  if (!stored) {
    const names = new Set([...current, ...pair.add].filter((name) => !pair.remove.includes(name)));
    // DynamoDB stores no empty set: an item without names is a pair without live labels.
    return {
      Put: {
        TableName: tableName,
        Item: { ...key, ...(names.size > 0 ? { names } : {}) },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    };
  }
  if (pair.add.length > 0) {
    const placeholders = new ExpressionPlaceholders({ name: '#n', value: ':name' });
    const free = pair.add.map((name) => `NOT contains(#names, ${placeholders.value(name)})`).join(' AND ');
    return {
      Update: {
        TableName: tableName,
        Key: key,
        UpdateExpression: 'ADD #names :add',
        ConditionExpression: `attribute_exists(pk) AND (attribute_not_exists(#names) OR (size(#names) <= :fullBefore AND ${free}))`,
        ...placeholders.attributes({
          names: { '#names': 'names' },
          values: { ':add': new Set(pair.add), ':fullBefore': maxNames - pair.add.length },
        }),
      },
    };
  }
  return {
    Update: {
      TableName: tableName,
      Key: key,
      UpdateExpression: 'DELETE #names :remove',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#names': 'names' },
      ExpressionAttributeValues: { ':remove': new Set(pair.remove) },
    },
  };
}

/** The writes that store new custom types whose pairs no label listing holds yet (a custom object type's association definitions): per type its label and id items. */
export function newAssociationTypeWrites(hubId: number, types: readonly AssociationType[]): TransactItem[] {
  return types.flatMap((type) =>
    [itemOf(labelItem, type, hubId), itemOf(typeItem, type, hubId)].map(
      (Item): TransactItem => ({
        Put: { TableName: tableName, Item, ConditionExpression: 'attribute_not_exists(pk)' },
      }),
    ),
  );
}

/** The keys of a custom type's two items. */
export const associationTypeKeysOf = (hubId: number, type: AssociationType) => [
  associationLabelKey(hubId, type.fromObjectTypeId, type.toObjectTypeId, type.typeId),
  associationTypeKey(hubId, type.typeId),
];

export type InsertTypesOutcome = 'created' | 'name-taken' | 'too-many' | 'contended';

/**
 * Writes custom types: per type its label item (listed per pair) and id pointer (found by id alone),
 * and per pair listing the names item that gains their names, all in one transaction. The names
 * item's condition keeps the names of a listing unique and at most `maxPerPair` of them, so
 * concurrent creates cannot pass either (the lists they read are only for the first answer).
 */
export async function insertCustomAssociationTypes(
  hubId: number,
  types: readonly AssociationType[],
  maxPerPair: number,
): Promise<InsertTypesOutcome> {
  const items: RoleWrite<'type' | 'names'>[] = types.flatMap((type) => [
    {
      role: 'type' as const,
      write: {
        Put: {
          TableName: tableName,
          Item: itemOf(labelItem, type, hubId),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    },
    {
      role: 'type' as const,
      write: {
        Put: {
          TableName: tableName,
          Item: itemOf(typeItem, type, hubId),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    },
  ]);
  // Each round either commits or re-reads a names item another request changed; a few rounds absorb a burst.
  return retryOnConflict(
    async () => {
      const names: RoleWrite<'type' | 'names'>[] = [];
      for (const pair of pairNamesOf(types, 'add')) {
        const write = await pairNamesWrite(hubId, pair, maxPerPair);
        if (typeof write === 'string') return write;
        names.push({ role: 'names', write });
      }
      const outcome = await transact([...items, ...names]);
      if (outcome.committed) return 'created';
      // A names item changed since it was read (or a racing write held it): read it again.
      const explained = outcome.reasons.every(
        (reason) =>
          (reason.role === 'names' && reason.code === 'ConditionalCheckFailed') ||
          reason.code === 'TransactionConflict',
      );
      if (!explained) throw outcome.error;
      return conflicted;
    },
    (): InsertTypesOutcome => 'contended',
    catalogConflictRetryPolicy,
  );
}

/**
 * Changes the label (or marks the types deleted) on both items of each type, all or nothing. A
 * deletion also frees the names in their pairs' names items, in the same transaction.
 */
export async function updateCustomAssociationTypes(
  hubId: number,
  changes: readonly { type: AssociationType; label?: string; archived?: boolean }[],
  /** Written in the same transaction (a schema whose association definition goes); its condition failing is a conflict. */
  alongside: readonly TransactItem[] = [],
): Promise<void> {
  const items: RoleWrite<'type' | 'names'>[] = changes.flatMap(({ type, label, archived }) => {
    const sets = [...(label === undefined ? [] : ['#label = :label']), ...(archived ? ['archived = :archived'] : [])];
    const update = {
      UpdateExpression: `SET ${sets.join(', ')}`,
      ConditionExpression: 'attribute_exists(pk)',
      ...(label === undefined ? {} : { ExpressionAttributeNames: { '#label': 'label' } }),
      ExpressionAttributeValues: {
        ...(label === undefined ? {} : { ':label': label }),
        ...(archived ? { ':archived': true } : {}),
      },
    };
    return [
      {
        role: 'type' as const,
        write: {
          Update: {
            TableName: tableName,
            Key: associationLabelKey(hubId, type.fromObjectTypeId, type.toObjectTypeId, type.typeId),
            ...update,
          },
        },
      },
      {
        role: 'type' as const,
        write: { Update: { TableName: tableName, Key: associationTypeKey(hubId, type.typeId), ...update } },
      },
    ];
  });
  const deleted = changes.filter((change) => change.archived).map((change) => change.type);
  await retryOnConflict(
    async () => {
      const names: RoleWrite<'type' | 'names'>[] = [];
      for (const pair of pairNamesOf(deleted, 'remove')) {
        const write = await pairNamesWrite(hubId, pair, Number.MAX_SAFE_INTEGER);
        if (typeof write !== 'string') names.push({ role: 'names', write });
      }
      const others = alongside.map((write) => ({ role: 'alongside' as const, write }));
      const outcome = await transact<'type' | 'names' | 'alongside'>([...items, ...names, ...others]);
      if (outcome.committed) return undefined;
      const explained = outcome.reasons.every(
        (reason) =>
          ((reason.role === 'names' || reason.role === 'alongside') && reason.code === 'ConditionalCheckFailed') ||
          reason.code === 'TransactionConflict',
      );
      if (!explained) throw outcome.error;
      return conflicted;
    },
    () => {
      throw new ConflictError('The labels of this object pair are being changed by other requests; retry the request.');
    },
    catalogConflictRetryPolicy,
  );
}
