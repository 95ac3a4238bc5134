import { tableName } from './client';
import {
  recordItem,
  edgeItemsOf,
  explainLinkedFailure,
  linkedUpdateItem,
  maxTransactionItems,
  mergeLinked,
  outcomeOfCancellation,
  recordIdAttribute,
  transactWithEdges,
  uniqueValueItem,
  type AssociationEdge,
  type CrmRecord,
  type LinkedChange,
  type LinksToSelf,
  type MergeMarker,
  type UniqueValue,
} from './records';
import { searchProjectionDelete, searchProjectionPut, type SearchForms } from './search-projection';
import { orderFormsOf, orderIndexWrites, recordCountWrites, type OrderForms } from './order-index';
import {
  batchGetAll,
  batchPutAll,
  ExpressionPlaceholders,
  type RoleWrite,
  type Entity,
  itemOf,
  recordOf,
} from './core';
import { mergedRecordKey, recordKey, searchShardOf, uniqueValueKey, type KeyedType } from './keys';

/** A merge as one write: the new record replaces both old ones, which leave pointers to it. */
export interface RecordMergeWrite {
  merged: CrmRecord;
  /** The two records merged away, at the versions read. */
  removed: readonly CrmRecord[];
  /** Unique values the merged record holds: each item is pointed at it. */
  uniqueValues: readonly UniqueValue[];
  /** Unique values of the old records the merged one does not keep: released. */
  releasedUniqueValues: readonly UniqueValue[];
  /** Other records whose association keys move from the old ids to the new one. */
  linked: readonly LinkedChange[];
  /** Reverse-lookup items the new record needs. */
  edges: readonly AssociationEdge[];
  /** Ids merged into the old records earlier: their pointers move from the old records to the new one. */
  repointedIds: readonly string[];
  /** The places of the records merged away in the ordered index, in `removed`'s order. */
  removedOrder: readonly OrderForms[];
  /** The bound of the type's links with itself, when it has one (TypeRules.linksToSelf): the new record's item counts them. */
  linksToSelf?: LinksToSelf;
}

export type MergeOutcome =
  | { outcome: 'merged' }
  | { outcome: 'stale' }
  | { outcome: 'unique-taken'; value: UniqueValue }
  | { outcome: 'linked-missing'; type: KeyedType; id: string }
  | { outcome: 'too-many-items'; items: number }
  | { outcome: 'too-large' }
  | { outcome: 'contended' };

/** What a record id merged away points to: the id of the record that holds the merge's result. */
interface MergePointer {
  mergedId: string;
  mergedInto: string;
}
/** A pointer's item names the id merged away in recordIdAttribute. */
const mergePointerEntity: Entity<
  { [recordIdAttribute]: string; mergedInto: string },
  { type: KeyedType; hubId: number }
> = {
  key: (pointer, { type, hubId }) => mergedRecordKey(type, hubId, pointer[recordIdAttribute]),
};
const mergePointerItem = {
  item: ({ mergedId, mergedInto }: MergePointer, scope: { type: KeyedType; hubId: number }) =>
    itemOf(mergePointerEntity, { [recordIdAttribute]: mergedId, mergedInto }, scope),
  read: (item: Record<string, unknown>): Partial<Record<keyof MergePointer, unknown>> => {
    const pointer = recordOf(mergePointerEntity, item);
    return { mergedId: pointer[recordIdAttribute], mergedInto: pointer.mergedInto };
  },
};

/**
 * What the webhook event of a merge reports (shared/webhooks/record-changes.ts reads it from the
 * stream): the primary (the first record removed), every merged id, and the values the secondary brought.
 */
function mergeMarkerOf(write: RecordMergeWrite): Required<MergeMarker> {
  const [primary, ...others] = write.removed;
  const moved = Object.keys(write.merged.properties).filter(
    (name) =>
      primary?.properties[name] === undefined &&
      others.some(
        (record) => record.properties[name] !== undefined && record.properties[name] === write.merged.properties[name],
      ),
  ).length;
  return {
    primaryObjectId: primary?.id ?? '',
    mergedObjectIds: write.removed.map((record) => record.id),
    numberOfPropertiesMoved: moved,
  };
}

/**
 * Writes a merge in one TransactWriteItems: the new record and its search projection; for each
 * old record, the delete (checked against the version read), its merge pointer and the removal of
 * its projection; every unique value re-pointed (or released); the association keys of linked
 * records moved; the pointers of ids merged before moved to the new record. Either all of it is
 * written or none of it. Reverse-lookup items that do not fit are written first: they only point
 * readers at the new record, and name nothing until it exists. Pointers that do not fit are
 * written just after: they name the new record, which must exist first.
 */
export async function mergeRecords(
  type: KeyedType,
  hubId: number,
  write: RecordMergeWrite,
  searchForms: SearchForms,
): Promise<MergeOutcome> {
  const { merged } = write;
  type Role =
    | { kind: 'record' }
    | { kind: 'unique'; value: UniqueValue }
    | { kind: 'linked'; type: KeyedType; id: string; linkDelta: number; keyGrowth: number }
    | { kind: 'other' };
  const other: Role = { kind: 'other' };
  const writes: RoleWrite<Role>[] = [
    {
      role: { kind: 'record' },
      write: {
        Put: {
          TableName: tableName,
          Item: recordItem.item(
            merged,
            { type, hubId, isArchived: false, linksToSelf: write.linksToSelf },
            mergeMarkerOf(write),
          ),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    },
    { role: other, write: searchProjectionPut(type, hubId, searchForms, merged.version) },
    // The ordered index and the count: the new record in, the merged ones out.
    ...orderIndexWrites(type, hubId, merged.id, undefined, orderFormsOf(searchForms)).map((indexWrite) => ({
      role: other,
      write: indexWrite,
    })),
    ...write.removed.flatMap((record, index) =>
      orderIndexWrites(type, hubId, record.id, write.removedOrder[index], undefined).map((indexWrite) => ({
        role: other,
        write: indexWrite,
      })),
    ),
    ...recordCountWrites(type, hubId, [
      { shard: searchShardOf(merged.id), delta: 1 },
      ...write.removed.map((record) => ({ shard: searchShardOf(record.id), delta: -1 })),
    ]).map((countWrite) => ({ role: other, write: countWrite })),
  ];
  const placeholders = new ExpressionPlaceholders({ name: '#n', value: ':old' });
  const ownedByOld = `attribute_not_exists(pk) OR ${recordIdAttribute} IN (${write.removed.map((record) => placeholders.value(record.id)).join(', ')})`;
  const oldIds = placeholders.values;
  for (const record of write.removed) {
    writes.push(
      {
        role: { kind: 'record' },
        write: {
          Delete: {
            TableName: tableName,
            Key: recordKey(type, hubId, record.id),
            ConditionExpression: 'version = :expected',
            ExpressionAttributeValues: { ':expected': record.version },
          },
        },
      },
      {
        role: other,
        write: {
          Put: {
            TableName: tableName,
            Item: mergePointerItem.item({ mergedId: record.id, mergedInto: merged.id }, { type, hubId }),
          },
        },
      },
      { role: other, write: searchProjectionDelete(type, hubId, record.id) },
    );
  }
  for (const value of write.uniqueValues) {
    writes.push({
      role: { kind: 'unique', value },
      write: {
        Put: {
          TableName: tableName,
          Item: uniqueValueItem.item({ holderId: merged.id, ...value }, { type, hubId }),
          ConditionExpression: ownedByOld,
          ExpressionAttributeValues: oldIds,
        },
      },
    });
  }
  for (const value of write.releasedUniqueValues) {
    writes.push({
      role: other,
      write: {
        Delete: {
          TableName: tableName,
          Key: uniqueValueKey(type, hubId, value.propertyName, value.value),
          ConditionExpression: ownedByOld,
          ExpressionAttributeValues: oldIds,
        },
      },
    });
  }
  for (const change of mergeLinked(write.linked)) {
    // Keys move from the old ids to the new one: a linked record gains none on balance (keyGrowth 0).
    writes.push({
      role: { kind: 'linked', type: change.type, id: change.id, linkDelta: change.linkDelta ?? 0, keyGrowth: 0 },
      write: linkedUpdateItem(hubId, change, write.linksToSelf),
    });
  }
  if (writes.length > maxTransactionItems) return { outcome: 'too-many-items', items: writes.length };
  const edgeItems = edgeItemsOf(hubId, type, merged.id, write.edges);
  // The earlier ids' pointers go in the transaction when it has room for them after the edges (which
  // transactWithEdges puts in it when they fit); else they are written as soon as it commits. Until
  // then those ids read through the old record's own pointer, written in the transaction: two hops.
  const pointers = write.repointedIds.map((id) =>
    mergePointerItem.item({ mergedId: id, mergedInto: merged.id }, { type, hubId }),
  );
  const room =
    maxTransactionItems -
    writes.length -
    (writes.length + edgeItems.length <= maxTransactionItems ? edgeItems.length : 0);
  const isRepointedInTransaction = pointers.length <= room;
  if (isRepointedInTransaction)
    for (const Item of pointers) writes.push({ role: other, write: { Put: { TableName: tableName, Item } } });
  const outcome = await transactWithEdges(writes, edgeItems, other);
  if (outcome.committed) {
    if (!isRepointedInTransaction) await batchPutAll(pointers);
    return { outcome: 'merged' };
  }
  const role = outcome.reasons.find((reason) => reason.code === 'ConditionalCheckFailed')?.role;
  if (role?.kind === 'unique') return { outcome: 'unique-taken', value: role.value };
  if (role?.kind === 'linked') {
    // A merge never adds to a linked record's count; items without one have it added now, all at once.
    const linked = outcome.reasons.flatMap((reason) =>
      reason.code === 'ConditionalCheckFailed' && reason.role.kind === 'linked' ? [reason.role] : [],
    );
    const explained = await Promise.all(
      linked.map((entry) => explainLinkedFailure(hubId, entry.type, entry.id, entry.linkDelta, entry.keyGrowth)),
    );
    return explained.find((entry) => entry.outcome === 'linked-missing') ?? { outcome: 'stale' };
  }
  if (role) return { outcome: 'stale' };
  return outcomeOfCancellation(outcome);
}

/** Merge pointers of up to 100 ids: one BatchGetItem (plus retries of unprocessed keys). */
export async function findMergePointers(
  type: KeyedType,
  hubId: number,
  ids: readonly string[],
): Promise<Map<string, string>> {
  const pointers = new Map<string, string>();
  if (ids.length === 0) return pointers;
  for (const item of await batchGetAll(ids.map((id) => mergedRecordKey(type, hubId, id)))) {
    const pointer = mergePointerItem.read(item);
    if (typeof pointer.mergedId === 'string' && typeof pointer.mergedInto === 'string')
      pointers.set(pointer.mergedId, pointer.mergedInto);
  }
  return pointers;
}
