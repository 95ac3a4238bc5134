import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from './client';
import { searchProjectionDelete, searchProjectionPut, type SearchForms } from './search-projection';
import {
  closedForGood,
  closedUntilAttribute,
  countDeltaOf,
  orderFormsOf,
  orderIndexWrites,
  recordCountWrites,
  type ListsTokenCheck,
  type OrderForms,
} from './order-index';
import {
  batchGetAll,
  batchPutAll,
  conditionalWrite,
  itemOf,
  recordOf,
  ExpressionPlaceholders,
  getItem,
  itemBytes,
  maxTransactionItems,
  queryPage,
  numberAttribute,
  stringAttribute,
  transact,
  type Entity,
  type Item,
  type RoleWrite,
  type TransactItem,
  type TransactOutcome,
} from './core';
import { mapConcurrently } from '../base/map-concurrently';
import { nowMs } from '../base/clock';
import { listSizeUpdate, sumSizeDeltas, type ListSizeDelta } from './dynamic-lists';
import { withoutKeys } from './item';
import {
  archivedRecordKey,
  associationEdgeKey,
  associationEdgePrefix,
  hubPartition,
  mergedRecordKey,
  recordAddressedBy,
  recordKey,
  recordListPrefix,
  searchKey,
  searchShardOf,
  uniqueValueKey,
  type Key,
  type KeyedType,
} from './keys';

export interface HistoryEntry {
  value: string;
  timestamp: string;
  sourceType: string;
  sourceId?: string;
}

/** A value that at most one active record of a type in the hub may hold (domain, email, hasUniqueValue properties). */
export interface UniqueValue {
  propertyName: string;
  value: string;
}

/**
 * One record in one item: properties, their history and the associations live together so
 * that a read is one GetItem and a create one TransactWriteItems.
 */
export interface CrmRecord {
  id: string;
  /** Only set values; computed ones (hs_object_id, createdate, ...) are derived on output. */
  properties: Record<string, string>;
  /** Newest first. */
  history: Record<string, HistoryEntry[]>;
  /** `${toObjectTypeId}/${toObjectId}/${typeId}` -> the v3 type name. */
  associations: Record<string, string>;
  uniqueValues: UniqueValue[];
  createdAt: string;
  updatedAt: string;
  archived: boolean;
  archivedAt?: string;
  /** Every write checks and bumps it, so concurrent read-modify-writes cannot lose updates. */
  version: number;
}

/**
 * Association keys to set or remove on another stored record (the other side of the write's
 * associations), in the same transaction.
 */
export interface LinkedChange {
  type: KeyedType;
  id: string;
  set: Record<string, string>;
  remove: string[];
  /**
   * Between two records of a type that bounds its links with itself (RecordWrite.linksToSelf) only:
   * how the other record's count of associated records of the type moves, +1 when it gains one, -1
   * when it loses one. saveRecord works it out from the write's own record (its associations are
   * the mirror of the others'); a merge, which moves keys between ids, states it.
   */
  linkDelta?: number;
  /** The other record's version as the write read it (a write that read it to decide, say, which primary it loses). */
  expectedVersion?: number;
  /** The other record has an activity pinned and loses its association with it: the pin goes too (pinRemovalOf). */
  unpin?: PinRemoval;
}

const pinProperty = 'hs_pinned_engagement_id';

/**
 * What a linked change does when its record loses the activity it has pinned: the pin
 * (`hs_pinned_engagement_id`) is removed, on condition it still names the activity, with a history
 * entry, and so is its value in the record's search projection, in the same transaction. Made by
 * pinRemovalOf alone, so a bundle whose writes never clear a pin holds none of it.
 */
export interface PinRemoval {
  /** The condition, removal and history entry it adds to the linked record's update. */
  updateParts(placeholders: ExpressionPlaceholders): { condition: string; remove: string; set: string };
  /** The update of the linked record's search projection. */
  projectionItem(hubId: number, change: LinkedChange): TransactItem;
}

export function pinRemovalOf(activityId: string, entry: HistoryEntry): PinRemoval {
  return {
    updateParts: (placeholders) => {
      const pin = placeholders.name(pinProperty);
      return {
        condition: `properties.${pin} = ${placeholders.value(activityId)}`,
        remove: `properties.${pin}`,
        set: `history.${pin} = list_append(${placeholders.value([entry])}, if_not_exists(history.${pin}, ${placeholders.value([])}))`,
      };
    },
    projectionItem: linkedUnpinProjectionItem,
  };
}

/**
 * A linked change written on its own (after its record's transaction, when that had no room): the
 * other record's update and, when it loses a pin, its projection's, together. A record gone or
 * changed meanwhile (its pin no longer the activity) keeps what it has.
 */
export async function writeLinkedChange(hubId: number, change: LinkedChange): Promise<void> {
  const items = [
    linkedUpdateItem(hubId, change),
    ...(change.unpin ? [change.unpin.projectionItem(hubId, change)] : []),
  ];
  const outcome = await transact(items.map((write) => ({ role: undefined, write })));
  // Its pin changed meanwhile: the association keys still go.
  if (!outcome.committed) await removeAssociationKeys(hubId, change.type, change.id, change.remove, false);
}

/** The search projection of a record that loses its pin, in the same transaction (linkedUpdateItem removes the value). */
function linkedUnpinProjectionItem(hubId: number, change: LinkedChange): TransactItem {
  return {
    Update: {
      TableName: tableName,
      Key: searchKey(change.type, hubId, change.id),
      UpdateExpression: 'REMOVE v.#pin, l.#pin, n.#pin',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#pin': pinProperty },
    },
  };
}

/**
 * What a write that archives its record writes of the record instead of its put: the active item
 * deleted (on the version condition), the archived item put, the search projection deleted. Named
 * by archive-record.ts alone, so a bundle that archives nothing holds none of it.
 */
export interface ArchivingWrites {
  record(type: KeyedType, hubId: number, write: RecordWrite, versionCondition: Item): TransactItem[];
  search(type: KeyedType, hubId: number, id: string): TransactItem;
}

export const archivingWrites: ArchivingWrites = {
  record: (type, hubId, write, versionCondition) => [
    { Delete: { TableName: tableName, Key: recordKey(type, hubId, write.record.id), ...versionCondition } },
    {
      Put: {
        TableName: tableName,
        Item: recordItem.item(write.record, { type, hubId, isArchived: true, linksToSelf: write.linksToSelf }),
      },
    },
  ],
  search: searchProjectionDelete,
};

export interface RecordWrite {
  record: CrmRecord;
  /** Undefined for a new record. */
  expectedVersion?: number;
  /** The associations of the record as read (for a change of an existing record): which linked records gain or lose it. */
  previousAssociations?: Record<string, string>;
  addUnique: UniqueValue[];
  removeUnique: UniqueValue[];
  linked: LinkedChange[];
  /** Moves the record to the recycle bin (archivingWrites). */
  archive?: ArchivingWrites;
  /** Records of other object types this write newly associates; their reverse-lookup items are written with it. */
  edges?: AssociationEdge[];
  /** The record's place in the ordered index as read (its create and modified forms): required for a change of an existing record. */
  previousOrder?: OrderForms;
  /** The bound of the record type's links with itself, when the type has one (TypeRules.linksToSelf): the write keeps the counts. */
  linksToSelf?: LinksToSelf;
  /** The record's search forms as read (a change of an existing record): what DYNAMIC lists infer its memberships from. */
  previousForms?: SearchForms;
  /** The memberships of DYNAMIC lists the write begins and ends (shared/lists/dynamic-lists.ts), and the lists' size changes. */
  lists?: { items: readonly TransactItem[]; sizes: readonly ListSizeDelta[]; token: string | undefined };
}

/** One record of a type this service does not store (a note, a call, ...), seen from the stored record holding it. */
export interface AssociationEdge {
  objectTypeId: string;
  objectId: string;
}

export { maxTransactionItems } from './core';

/**
 * A type's bound on the records of its own type one record may be associated with (a type rule,
 * TypeRules.linksToSelf), on both sides: each record's item counts them (linkCountAttribute, below),
 * and the count is checked in the transaction that adds to it. Archiving removes the reverse side of
 * each in its transaction, so the bound keeps that transaction small.
 */
export interface LinksToSelf {
  max: number;
}
/** The stored attribute holding a record's count of associated records of its own type. */
const linkCountAttribute = 'companyLinkCount';
/** At most this many association keys on one record of any type (far below 400 KB), also checked on a linked record when another's write adds keys to it. */
/** A ConditionCheck that a record is still at the version read: what a write outside the record's own transaction (its lists' memberships) is conditioned on. */
export function recordVersionCheck(type: KeyedType, hubId: number, id: string, version: number): TransactItem {
  return {
    ConditionCheck: {
      TableName: tableName,
      Key: recordKey(type, hubId, id),
      ConditionExpression: 'version = :version',
      ExpressionAttributeValues: { ':version': version },
    },
  };
}

export const maxAssociationsPerRecord = 1000;

export type SaveOutcome =
  | { outcome: 'saved' }
  | { outcome: 'unique-taken'; value: UniqueValue; ownerId: string | undefined }
  /** The value was removed for good (a GDPR delete) and may not be used again. */
  | { outcome: 'unique-blocked'; value: UniqueValue }
  | { outcome: 'stale' }
  /** A linked record does not exist: the first, and every one the transaction named (`missing`). */
  | { outcome: 'linked-missing'; type: KeyedType; id: string; missing?: readonly { type: KeyedType; id: string }[] }
  /** The linked record has no room: maxAssociationsPerRecord keys, or its type's bound on links with itself (LinksToSelf). */
  | { outcome: 'linked-full'; type: KeyedType; id: string }
  /** More writes than one transaction takes: unique values (added and removed) and linked records. */
  | { outcome: 'too-many-items'; uniqueValues: number; linkedRecords: number }
  | { outcome: 'too-large' }
  /** The type's counters are closed (order-index.ts closedUntilAttribute): its schema is being archived, or (`isForGood`) was. */
  | { outcome: 'type-closed'; isForGood: boolean }
  /** The type's DYNAMIC lists changed since the write evaluated them: evaluate them again. */
  | { outcome: 'lists-changed' }
  | { outcome: 'contended' };

const keyOf = (type: KeyedType, hubId: number, id: string, isArchived: boolean): Key =>
  isArchived ? archivedRecordKey(type, hubId, id) : recordKey(type, hubId, id);

/** Where a record item lives: its type, account and whether it is archived. */
export interface RecordScope {
  type: KeyedType;
  hubId: number;
  isArchived: boolean;
  /** The type's bound on links with itself, when it has one: the item carries the count. */
  linksToSelf?: LinksToSelf;
}

/** A record item: the record at its active or archived key. */
const recordEntity: Entity<CrmRecord, RecordScope> = {
  key: (record, { type, hubId, isArchived }) => keyOf(type, hubId, record.id, isArchived),
  // A map attribute an item lacks (an older item, or one written by a tool) reads as empty, never as a crash.
  read: (item) => {
    const { [linkCountAttribute]: linkCount, ...record } = withoutKeys<CrmRecord & { [linkCountAttribute]?: number }>(
      item,
    );
    void linkCount;
    return {
      ...record,
      properties: record.properties ?? {},
      history: record.history ?? {},
      associations: record.associations ?? {},
      uniqueValues: record.uniqueValues ?? [],
    };
  },
};

/** The ids of the records of one type a record's association keys (`<typeId>/{id}/{associationTypeId}`) name. */
export function associatedIdsOf(associations: Record<string, string>, typeId: string): Set<string> {
  const ids = new Set<string>();
  const prefix = `${typeId}/`;
  for (const key of Object.keys(associations)) if (key.startsWith(prefix)) ids.add(key.split('/')[1] ?? '');
  return ids;
}

/**
 * What the record a merge produces carries beside it, for the merge's webhook event
 * (shared/webhooks/record-changes.ts reads it from the stream; shared/db/record-merge.ts writes it).
 */
export interface MergeMarker {
  primaryObjectId: string;
  mergedObjectIds: string[];
  numberOfPropertiesMoved?: number;
}

/**
 * The item of a record of a type that bounds its links with itself (LinksToSelf) carries
 * linkCountAttribute, the number of records of its type associated with it, beside the record: a
 * full write counts it from the record, and a linked update (another such record's write) moves it
 * under the condition that holds the bound. An item without it gets it from backfillLinkCount (or
 * its next full write). The record of a merge also carries its MergeMarker.
 */
export const recordItem = {
  item: (record: CrmRecord, scope: RecordScope, merge?: MergeMarker): Item => ({
    ...itemOf(recordEntity, record, scope),
    ...(scope.linksToSelf ? { [linkCountAttribute]: associatedIdsOf(record.associations, scope.type.id).size } : {}),
    ...(merge ? { merge } : {}),
  }),
  read: (item: Item): CrmRecord => recordOf(recordEntity, item),
};

/** A record as an item holds it (a stream record's image, say), or undefined when the item is anything else. */
export interface RecordItem {
  hubId: number;
  isArchived: boolean;
  record: CrmRecord;
  /** Set on the record a merge produces. */
  merge?: MergeMarker;
}

/** The key prefix of the record an item's key addresses (active or archived), or undefined when it addresses none. */
export function recordKeyPrefixOf(item: Item): string | undefined {
  return recordAddressedBy(item)?.keyPrefix;
}

/** The record of this type an item holds, read by the record entity (its defaults included), or undefined when the item is anything else. */
export function recordItemOf(type: KeyedType, item: Item): RecordItem | undefined {
  const key = recordAddressedBy(item);
  if (!key || key.keyPrefix !== type.keyPrefix) return undefined;
  const { merge, ...record } = recordItem.read(item) as CrmRecord & { merge?: MergeMarker };
  return { hubId: key.hubId, isArchived: key.isArchived, record, ...(merge ? { merge } : {}) };
}

/**
 * The stored attribute naming a record in the items that point at one (a unique value's claim, a
 * reverse-lookup item, a merge pointer), for every type: `companyId`, the name the items are
 * written with. The entities below map it to and from the TypeScript name of what it holds.
 */
export const recordIdAttribute = 'companyId';

/** A unique value's item names the record that holds it (the holder). */
export interface UniqueValueClaim extends UniqueValue {
  holderId: string;
}
const uniqueValueEntity: Entity<UniqueValue & { [recordIdAttribute]: string }, { type: KeyedType; hubId: number }> = {
  key: (claim, { type, hubId }) => uniqueValueKey(type, hubId, claim.propertyName, claim.value),
};
export const uniqueValueItem = {
  item: ({ holderId, ...value }: UniqueValueClaim, scope: { type: KeyedType; hubId: number }): Item =>
    itemOf(uniqueValueEntity, { ...value, [recordIdAttribute]: holderId }, scope),
};
/** The holder a claim or a reverse-lookup item names. */
const holderIdOf = (item: Item): unknown => item[recordIdAttribute];

/**
 * The reverse-lookup item of a record this service does not store (the edge, in the key)
 * associated with a stored record: it names that record, the holder.
 */
const associationEdgeEntity: Entity<
  { [recordIdAttribute]: string },
  { hubId: number; holder: KeyedType; edge: AssociationEdge }
> = {
  key: (item, { hubId, holder, edge }) =>
    associationEdgeKey(hubId, holder, edge.objectTypeId, edge.objectId, item[recordIdAttribute]),
};

const linkedKeyOf = (change: { type: KeyedType; id: string }): string => `${change.type.id}/${change.id}`;

export function mergeLinked(changes: readonly LinkedChange[]): LinkedChange[] {
  const merged = new Map<string, LinkedChange>();
  for (const change of changes) {
    const into = merged.get(linkedKeyOf(change)) ?? { type: change.type, id: change.id, set: {}, remove: [] };
    Object.assign(into.set, change.set);
    into.remove.push(...change.remove.filter((key) => !(key in into.set)));
    if (change.linkDelta !== undefined) into.linkDelta = (into.linkDelta ?? 0) + change.linkDelta;
    if (change.expectedVersion !== undefined) into.expectedVersion = change.expectedVersion;
    if (change.unpin !== undefined) into.unpin = change.unpin;
    merged.set(linkedKeyOf(change), into);
  }
  return [...merged.values()];
}

/**
 * The linked changes of one record's write. The write of a record whose type bounds its links with
 * itself, to another record of its type, also says how that record's count moves: it holds this
 * record after the write exactly when this record holds it (every association between stored
 * records is stored on both, in one transaction). No other pair is counted.
 */
function withLinkDeltas(type: KeyedType, write: RecordWrite): LinkedChange[] {
  if (write.previousAssociations === undefined && write.expectedVersion !== undefined) {
    throw new Error('a change of an existing record needs the associations it read (previousAssociations)');
  }
  const merged = mergeLinked(write.linked);
  if (!write.linksToSelf) return merged;
  const before = associatedIdsOf(write.previousAssociations ?? {}, type.id);
  const after = write.archive ? new Set<string>() : associatedIdsOf(write.record.associations, type.id);
  return merged.map((change) =>
    change.type.id !== type.id
      ? change
      : {
          ...change,
          linkDelta: change.linkDelta ?? (after.has(change.id) ? 1 : 0) - (before.has(change.id) ? 1 : 0),
        },
  );
}

export type RecordWriteRole =
  | { kind: 'main' }
  | { kind: 'unique'; value: UniqueValue }
  | { kind: 'unique-remove' }
  | { kind: 'search' }
  | { kind: 'edge' }
  | { kind: 'count' }
  | { kind: 'list' }
  | { kind: 'linked'; type: KeyedType; id: string; linkDelta: number; keyGrowth: number; linksToSelf?: LinksToSelf };

/** How many association keys a linked change may add to the other record (sets beyond removals; a set of a key it holds counts too). */
const keyGrowthOf = (change: LinkedChange): number =>
  Math.max(0, Object.keys(change.set).length - change.remove.length);

/** One record write as the items of a transaction: the record, its projection, unique values and linked records; and its reverse-lookup items. */
export interface RecordWriteItems {
  writes: RoleWrite<RecordWriteRole>[];
  /** What the write does to the active record count, and the counter shard of its id (recordCountWrites sums a transaction's into one counter). */
  count: { shard: number; delta: number };
  edgeItems: Record<string, unknown>[];
  uniqueValues: number;
  linkedRecords: number;
  /** The DYNAMIC lists' size changes (listSizeWritesOf sums a transaction's into one counter a list). */
  listSizes: readonly ListSizeDelta[];
  /** The lists' token the write evaluated, checked on its count write (order-index.ts listsTokenAttribute); absent when it evaluated none. */
  listsToken?: ListsTokenCheck;
}

export function recordWriteItems(
  type: KeyedType,
  hubId: number,
  write: RecordWrite,
  searchForms: SearchForms,
): RecordWriteItems {
  const { record } = write;
  const writes: RoleWrite<RecordWriteRole>[] = [];
  const main: RecordWriteRole = { kind: 'main' };
  const versionCondition =
    write.expectedVersion === undefined
      ? { ConditionExpression: 'attribute_not_exists(pk)' }
      : {
          ConditionExpression: 'version = :expected',
          ExpressionAttributeValues: { ':expected': write.expectedVersion },
        };
  if (write.archive) {
    for (const item of write.archive.record(type, hubId, write, versionCondition))
      writes.push({ role: main, write: item });
  } else {
    writes.push({
      role: main,
      write: {
        Put: {
          TableName: tableName,
          Item: recordItem.item(record, { type, hubId, isArchived: false, linksToSelf: write.linksToSelf }),
          ...versionCondition,
        },
      },
    });
  }
  // The search projection changes with the record, in the same transaction (read-your-writes for search).
  writes.push({
    role: { kind: 'search' },
    write: write.archive
      ? write.archive.search(type, hubId, record.id)
      : searchProjectionPut(type, hubId, searchForms, record.version),
  });
  // So do its places in the ordered index.
  if (write.expectedVersion !== undefined && write.previousOrder === undefined)
    throw new Error(`a change of ${type.keyPrefix} ${record.id} must name its place in the ordered index as read`);
  const before = write.expectedVersion === undefined ? undefined : write.previousOrder;
  const after = write.archive ? undefined : orderFormsOf(searchForms);
  for (const indexWrite of orderIndexWrites(type, hubId, record.id, before, after))
    writes.push({ role: { kind: 'search' }, write: indexWrite });
  for (const value of write.addUnique) {
    writes.push({
      role: { kind: 'unique', value },
      write: {
        Put: {
          TableName: tableName,
          Item: uniqueValueItem.item({ holderId: record.id, ...value }, { type, hubId }),
          ConditionExpression: 'attribute_not_exists(pk)',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
    });
  }
  for (const value of write.removeUnique) {
    writes.push({
      role: { kind: 'unique-remove' },
      write: { Delete: { TableName: tableName, Key: uniqueValueKey(type, hubId, value.propertyName, value.value) } },
    });
  }
  const linked = withLinkDeltas(type, write);
  for (const change of linked) {
    writes.push({
      role: {
        kind: 'linked',
        type: change.type,
        id: change.id,
        linkDelta: change.linkDelta ?? 0,
        keyGrowth: keyGrowthOf(change),
        linksToSelf: write.linksToSelf,
      },
      write: linkedUpdateItem(hubId, change, write.linksToSelf),
    });
    if (change.unpin) writes.push({ role: { kind: 'search' }, write: change.unpin.projectionItem(hubId, change) });
  }
  for (const item of write.lists?.items ?? []) writes.push({ role: { kind: 'list' }, write: item });
  return {
    writes,
    count: { shard: searchShardOf(record.id), delta: countDeltaOf(before, after) },
    edgeItems: edgeItemsOf(hubId, type, record.id, write.edges ?? []),
    uniqueValues: write.addUnique.length + write.removeUnique.length,
    linkedRecords: linked.length,
    listSizes: write.lists?.sizes ?? [],
    ...(write.lists ? { listsToken: { token: write.lists.token } } : {}),
  };
}

/** What a canceled record transaction means, from the first failed condition (a linked record's is looked at again). */
export async function explainRecordCancellation(
  type: KeyedType,
  hubId: number,
  outcome: Extract<TransactOutcome<RecordWriteRole>, { committed: false }>,
): Promise<Exclude<SaveOutcome, { outcome: 'saved' | 'too-many-items' }>> {
  const failed = outcome.reasons.find((reason) => reason.code === 'ConditionalCheckFailed');
  const role = failed?.role;
  if (role?.kind === 'unique') {
    if (stringAttribute(failed?.item, 'blockedAt') !== undefined)
      return { outcome: 'unique-blocked', value: role.value };
    const ownerId =
      stringAttribute(failed?.item, recordIdAttribute) ?? (await findUniqueValueOwner(type, hubId, role.value));
    return { outcome: 'unique-taken', value: role.value, ownerId };
  }
  if (role?.kind === 'linked') {
    // Every failed linked record at once: older items get their counts in one round, not one per attempt.
    const linked = outcome.reasons.flatMap((reason) =>
      reason.code === 'ConditionalCheckFailed' && reason.role.kind === 'linked' ? [reason.role] : [],
    );
    // Missing records first, keys only, in one BatchGetItem per 100: a write naming many missing records is explained in one call, not one each.
    const existing = await findExistingRecords(hubId, linked);
    const missing = linked.filter((entry) => !existing.has(`${entry.type.id}/${entry.id}`));
    const [first] = missing;
    if (first) return { outcome: 'linked-missing', type: first.type, id: first.id, missing };
    const explained = await Promise.all(
      linked.map((entry) =>
        explainLinkedFailure(hubId, entry.type, entry.id, entry.linkDelta, entry.keyGrowth, entry.linksToSelf),
      ),
    );
    return (
      explained.find((entry) => entry.outcome === 'linked-missing') ??
      explained.find((entry) => entry.outcome === 'linked-full') ?? { outcome: 'stale' }
    );
  }
  // A membership the write inferred was not as it thought: the retry reads the memberships.
  if (role?.kind === 'main' || role?.kind === 'list') return { outcome: 'stale' };
  if (role?.kind === 'count') {
    const closedUntil = numberAttribute(failed?.item, closedUntilAttribute);
    if (closedUntil !== undefined && closedUntil >= nowMs())
      return { outcome: 'type-closed', isForGood: closedUntil === closedForGood };
    // Open: the type's DYNAMIC lists changed since the write read them (order-index.ts listsTokenAttribute).
    return { outcome: 'lists-changed' };
  }
  return outcomeOfCancellation(outcome);
}

/**
 * The items a record write's transaction holds besides its linked records': the record (and its
 * archived copy), its search projection and ordered-index places, its unique values and its count.
 * What is left of maxTransactionItems is the room for linked records.
 */
export function ownItemCount(type: KeyedType, hubId: number, write: RecordWrite, searchForms: SearchForms): number {
  const items = recordWriteItems(type, hubId, { ...write, linked: [] }, searchForms);
  return (
    items.writes.length +
    countWritesOf(type, hubId, [items.count], items.listsToken).length +
    listSizeWritesOf(hubId, items.listSizes, items.count.shard).length
  );
}

/** Writes the record, its unique values and linked records in one TransactWriteItems. */
export async function saveRecord(
  type: KeyedType,
  hubId: number,
  write: RecordWrite,
  searchForms: SearchForms,
): Promise<SaveOutcome> {
  const items = recordWriteItems(type, hubId, write, searchForms);
  const writes = [
    ...items.writes,
    ...countWritesOf(type, hubId, [items.count], items.listsToken),
    ...listSizeWritesOf(hubId, items.listSizes, items.count.shard),
  ];
  // Refused before anything is written: DynamoDB would reject the whole transaction (a ValidationException, not a cancellation).
  if (writes.length > maxTransactionItems)
    return { outcome: 'too-many-items', uniqueValues: items.uniqueValues, linkedRecords: items.linkedRecords };
  const outcome = await transactWithEdges(writes, items.edgeItems, { kind: 'edge' });
  if (outcome.committed) return { outcome: 'saved' };
  return explainRecordCancellation(type, hubId, outcome);
}

/** The active record count's writes of changes written together, as roles of their transaction. */
const countWritesOf = (
  type: KeyedType,
  hubId: number,
  counts: readonly { shard: number; delta: number }[],
  listsToken?: ListsTokenCheck,
): RoleWrite<RecordWriteRole>[] =>
  recordCountWrites(type, hubId, counts, undefined, listsToken).map((write) => ({ role: { kind: 'count' }, write }));

/** The DYNAMIC lists' size changes of writes written together: one counter write a list, on the shard of the first record. */
const listSizeWritesOf = (
  hubId: number,
  sizes: readonly ListSizeDelta[],
  shard: number,
): RoleWrite<RecordWriteRole>[] =>
  sumSizeDeltas(sizes).map((delta) => ({
    role: { kind: 'list' },
    write: listSizeUpdate(hubId, delta, shard, new Date(nowMs()).toISOString()),
  }));

/** DynamoDB caps a transaction's request at 4 MB; the estimate (itemBytes) keeps room. */
const maxTransactionBytes = 3_500_000;

function keyOfWrite(write: TransactItem): string {
  const key = (write.Put?.Item ?? write.Update?.Key ?? write.Delete?.Key ?? write.ConditionCheck?.Key ?? {}) as Record<
    string,
    unknown
  >;
  return `${String(key.pk)}\u0000${String(key.sk)}`;
}

const bytesOfWrite = (write: TransactItem): number => itemBytes(write as Record<string, unknown>);

/**
 * Writes many records' changes in as few TransactWriteItems as hold them (100 items, about 4 MB
 * each), `concurrency` at a time. Each write's items (record, projection, linked records,
 * reverse-lookup items) stay together in one transaction, so each record is still written all or
 * nothing. No item is in two of these transactions, so they never conflict with each other. Returns
 * the indexes of the writes not written: those of a canceled transaction (a record changed since
 * it was read, a linked record is full or gone), those that alone fill a transaction, and those
 * sharing an item with an earlier write, and those of the transactions not started once `isTimeUp`.
 * The caller writes them one by one (saveRecord), which re-reads and explains. `groupItems` caps
 * the items a group gathers (a write alone may still take a whole transaction).
 */
export async function saveRecordsGrouped(
  type: KeyedType,
  hubId: number,
  entries: readonly { write: RecordWrite; searchForms: SearchForms }[],
  concurrency: number,
  isTimeUp: () => boolean = () => false,
  groupItems: number = maxTransactionItems,
): Promise<Set<number>> {
  const notWritten = new Set<number>();
  const taken = new Set<string>();
  type Group = {
    indexes: number[];
    writes: RoleWrite<RecordWriteRole>[];
    bytes: number;
    edgeItems: Record<string, unknown>[];
    /** The count changes of its writes: one counter write is added when it is written. */
    counts: { shard: number; delta: number }[];
    /** The DYNAMIC lists' size changes of its writes: one counter write a list is added when it is written. */
    listSizes: ListSizeDelta[];
    /** The lists' token its first write evaluated (its writes were planned from one view of the lists). */
    listsToken?: ListsTokenCheck;
  };
  /** The room every transaction keeps for its one counter write (recordCountWrites). */
  const countItem = 1;
  const groups: Group[] = [];
  let current: Group | undefined;
  entries.forEach((entry, index) => {
    const items = recordWriteItems(type, hubId, entry.write, entry.searchForms);
    const edgeRole: RecordWriteRole = { kind: 'edge' };
    const withEdges = [
      ...items.writes,
      ...items.edgeItems.map((Item) => ({ role: edgeRole, write: { Put: { TableName: tableName, Item } } })),
    ];
    // A write whose reverse-lookup items do not fit beside it has a transaction to itself, its lookup items written just before (transactWithEdges).
    const isAlone = withEdges.length + countItem > maxTransactionItems;
    const writes = isAlone ? items.writes : withEdges;
    // Room for the size counters of the lists it changes (at most one a list, fewer once summed with the group's).
    const sizeItems = items.listSizes.length;
    const keys = writes.map((entryWrite) => keyOfWrite(entryWrite.write));
    const bytes = writes.reduce((sum, entryWrite) => sum + bytesOfWrite(entryWrite.write), 0);
    if (
      writes.length + countItem + sizeItems > maxTransactionItems ||
      bytes > maxTransactionBytes ||
      keys.some((key) => taken.has(key))
    ) {
      notWritten.add(index);
      return;
    }
    for (const key of keys) taken.add(key);
    if (isAlone) {
      groups.push({
        indexes: [index],
        writes,
        bytes,
        edgeItems: items.edgeItems,
        counts: [items.count],
        listSizes: [...items.listSizes],
        listsToken: items.listsToken,
      });
      return;
    }
    if (
      !current ||
      current.writes.length + writes.length + countItem + current.listSizes.length + sizeItems > groupItems ||
      current.bytes + bytes > maxTransactionBytes
    ) {
      current = {
        indexes: [],
        writes: [],
        bytes: 0,
        edgeItems: [],
        counts: [],
        listSizes: [],
        listsToken: items.listsToken,
      };
      groups.push(current);
    }
    current.indexes.push(index);
    current.writes.push(...writes);
    current.bytes += bytes;
    current.counts.push(items.count);
    current.listSizes.push(...items.listSizes);
  });
  await mapConcurrently(groups, concurrency, async (group) => {
    if (isTimeUp()) {
      for (const index of group.indexes) notWritten.add(index);
      return;
    }
    const outcome = await transactWithEdges(
      [
        ...group.writes,
        ...countWritesOf(type, hubId, group.counts, group.listsToken),
        ...listSizeWritesOf(hubId, group.listSizes, group.counts[0]?.shard ?? 0),
      ],
      group.edgeItems,
      { kind: 'edge' },
    );
    // Any cancellation: the writes go one by one, where each is retried or explained on its own.
    if (!outcome.committed) for (const index of group.indexes) notWritten.add(index);
  });
  return notWritten;
}

/** A cancellation no condition explains: an item over 400 KB (say, a record very many others link to) or a conflict. */
export function outcomeOfCancellation<R>(
  outcome: Extract<TransactOutcome<R>, { committed: false }>,
): { outcome: 'too-large' } | { outcome: 'contended' } {
  if (outcome.reasons.some((reason) => reason.code === 'ValidationError')) return { outcome: 'too-large' };
  if (outcome.reasons.some((reason) => reason.code === 'TransactionConflict')) return { outcome: 'contended' };
  throw outcome.error;
}

/**
 * Sets and removes association keys on another record (which must exist), bumping its version.
 * Its count of associated records of its type (linkCountAttribute) moves by linkDelta: a gain needs
 * room under the type's bound (`linksToSelf`), a loss is never refused; either needs the count to
 * exist (an item without it gets it from backfillLinkCount first), since ADD on a missing count
 * would start it from nothing. Keys it gains need room under maxAssociationsPerRecord (size() of
 * the map, in the same condition).
 */
export function linkedUpdateItem(hubId: number, change: LinkedChange, linksToSelf?: LinksToSelf): TransactItem {
  const placeholders = new ExpressionPlaceholders();
  const values: Item = { ':one': 1 };
  const delta = change.linkDelta ?? 0;
  const conditions = ['attribute_exists(pk)'];
  if (change.expectedVersion !== undefined) {
    values[':expectedVersion'] = change.expectedVersion;
    conditions.push('version = :expectedVersion');
  }
  if (delta !== 0) {
    values[':linkDelta'] = delta;
    conditions.push(`attribute_exists(${linkCountAttribute})`);
  }
  // A count grows only under its type's bound: linkDelta is set between records of such a type alone.
  if (delta > 0 && linksToSelf) {
    values[':linksBefore'] = linksToSelf.max - delta;
    conditions.push(`${linkCountAttribute} <= :linksBefore`);
  }
  const keyGrowth = keyGrowthOf(change);
  if (keyGrowth > 0) {
    values[':keysBefore'] = maxAssociationsPerRecord - keyGrowth;
    conditions.push('(attribute_not_exists(associations) OR size(associations) <= :keysBefore)');
  }
  const sets = Object.entries(change.set).map(
    ([key, name]) => `associations.${placeholders.name(key)} = ${placeholders.value(name)}`,
  );
  const removes = change.remove.map((key) => `associations.${placeholders.name(key)}`);
  if (change.unpin) {
    const pin = change.unpin.updateParts(placeholders);
    conditions.push(pin.condition);
    removes.push(pin.remove);
    sets.push(pin.set);
  }
  const adds = ['version :one', ...(delta !== 0 ? [`${linkCountAttribute} :linkDelta`] : [])];
  const expression = [
    sets.length ? `SET ${sets.join(', ')}` : '',
    removes.length ? `REMOVE ${removes.join(', ')}` : '',
    `ADD ${adds.join(', ')}`,
  ]
    .filter(Boolean)
    .join(' ');
  return {
    Update: {
      TableName: tableName,
      Key: recordKey(change.type, hubId, change.id),
      UpdateExpression: expression,
      ConditionExpression: conditions.join(' AND '),
      ...placeholders.attributes({ values }),
    },
  };
}

/** The reverse-lookup items of a stored record's newly associated records of types not stored. */
export function edgeItemsOf(
  hubId: number,
  holder: KeyedType,
  holderId: string,
  edges: readonly AssociationEdge[],
): Record<string, unknown>[] {
  return edges.map((edge) => itemOf(associationEdgeEntity, { [recordIdAttribute]: holderId }, { hubId, holder, edge }));
}

/**
 * A record transaction with the reverse-lookup items that fit in it; the others are written just
 * before. They only point readers at a record, whose own item is the truth, so writing them ahead
 * of a transaction that then fails leaves nothing a reader would see.
 */
export async function transactWithEdges<R>(
  writes: RoleWrite<R>[],
  edgeItems: readonly Record<string, unknown>[],
  edgeRole: R,
): Promise<TransactOutcome<R>> {
  if (writes.length + edgeItems.length <= maxTransactionItems) {
    for (const Item of edgeItems) writes.push({ role: edgeRole, write: { Put: { TableName: tableName, Item } } });
  } else {
    await batchPutAll(edgeItems);
  }
  return transact(writes);
}

export async function findRecord(
  type: KeyedType,
  hubId: number,
  id: string,
  isArchived = false,
): Promise<CrmRecord | undefined> {
  const item = await getItem(keyOf(type, hubId, id, isArchived));
  return item ? recordItem.read(item) : undefined;
}

/** A record item the table's stream saw removed: an active one, or an archived one. */
export interface RemovedRecordItem {
  type: KeyedType;
  hubId: number;
  id: string;
  isArchived: boolean;
}

/**
 * Which removed record items took the record with them (their indexes): those that left nothing
 * of it behind. Every other removal of a record item writes where the record lives on, in its
 * transaction: an archive the archived item, a merge the merge pointer of each merged record
 * (shared/db/record-merge.ts), a restore the active item; a delete for good (deleteRecordForGood)
 * writes none of them. So a removed active item whose archived item and merge pointer are both
 * missing, or a removed archived item whose active item is missing, is gone for good by now. Only
 * keys are read, strongly consistent (BatchGetItem, 100 keys a call).
 */
export async function findRemovedForGood(removed: readonly RemovedRecordItem[]): Promise<Set<number>> {
  const remnantsOf = ({ type, hubId, id, isArchived }: RemovedRecordItem): Key[] =>
    isArchived ? [recordKey(type, hubId, id)] : [archivedRecordKey(type, hubId, id), mergedRecordKey(type, hubId, id)];
  const idOf = (key: Key) => `${key.pk}\u0000${key.sk}`;
  const found = new Set(
    removed.length === 0
      ? []
      : (await batchGetAll(removed.flatMap(remnantsOf), { attributes: [] })).map((item) =>
          idOf({ pk: String(item.pk), sk: String(item.sk) }),
        ),
  );
  const gone = new Set<number>();
  removed.forEach((entry, index) => {
    if (!remnantsOf(entry).some((key) => found.has(idOf(key)))) gone.add(index);
  });
  return gone;
}

/** The records of these ids (duplicates read once); missing ones are absent from the map. */
export async function findRecords(
  type: KeyedType,
  hubId: number,
  ids: readonly string[],
  isArchived = false,
): Promise<Map<string, CrmRecord>> {
  const found = new Map<string, CrmRecord>();
  if (ids.length === 0) return found;
  for (const item of await batchGetAll(ids.map((id) => keyOf(type, hubId, id, isArchived)))) {
    const record = recordItem.read(item);
    found.set(record.id, record);
  }
  return found;
}

/** Which of these active records exist ("<typeId>/<id>"): keys only, one BatchGetItem per 100. */
export async function findExistingRecords(
  hubId: number,
  records: readonly { type: KeyedType; id: string }[],
): Promise<Set<string>> {
  const unique = new Map(records.map((record) => [`${record.type.id}/${record.id}`, record]));
  const byKey = new Map(
    [...unique.values()].map((record) => {
      const key = recordKey(record.type, hubId, record.id);
      return [`${key.sk}`, `${record.type.id}/${record.id}`];
    }),
  );
  const found = new Set<string>();
  if (unique.size === 0) return found;
  const items = await batchGetAll(
    [...unique.values()].map((record) => recordKey(record.type, hubId, record.id)),
    { attributes: [] },
  );
  for (const item of items) {
    const name = byKey.get(String(item.sk));
    if (name) found.add(name);
  }
  return found;
}

export interface RecordPage {
  records: CrmRecord[];
  hasMore: boolean;
}

/** One Query per page: one record more than asked tells whether another page exists. */
export async function listRecords(
  type: KeyedType,
  hubId: number,
  isArchived: boolean,
  limit: number,
  afterId: string | undefined,
): Promise<RecordPage> {
  const page = await queryPage(
    { pk: hubPartition(hubId), skPrefix: recordListPrefix(type, isArchived), pageSize: limit + 1 },
    afterId === undefined ? undefined : keyOf(type, hubId, afterId, isArchived),
  );
  const records = page.items.map(recordItem.read);
  return { records: records.slice(0, limit), hasMore: records.length > limit };
}

export async function findUniqueValueOwner(
  type: KeyedType,
  hubId: number,
  value: UniqueValue,
): Promise<string | undefined> {
  const item = await getItem(uniqueValueKey(type, hubId, value.propertyName, value.value));
  const owner = item ? holderIdOf(item) : undefined;
  return typeof owner === 'string' && owner !== '' ? owner : undefined;
}

/** Value -> the id of the record holding it, for at most 100 values of one property. */
export async function findUniqueValueOwners(
  type: KeyedType,
  hubId: number,
  propertyName: string,
  values: readonly string[],
): Promise<Map<string, string>> {
  const owners = new Map<string, string>();
  if (values.length === 0) return owners;
  for (const item of await batchGetAll(values.map((value) => uniqueValueKey(type, hubId, propertyName, value)))) {
    const [value, holderId] = [item.value, holderIdOf(item)];
    if (typeof value === 'string' && typeof holderId === 'string' && holderId !== '') owners.set(value, holderId);
  }
  return owners;
}

/**
 * Why a linked record's condition failed, read from the record itself: gone; an item without its
 * link count (which is added now, so the next attempt can count); full; or changed meanwhile.
 */
export async function explainLinkedFailure(
  hubId: number,
  type: KeyedType,
  id: string,
  linkDelta: number,
  keyGrowth: number,
  linksToSelf?: LinksToSelf,
): Promise<Exclude<SaveOutcome, { outcome: 'saved' | 'too-many-items' }>> {
  const item = await getItem(recordKey(type, hubId, id));
  if (!item) return { outcome: 'linked-missing', type, id };
  const keys = Object.keys(recordItem.read(item).associations).length;
  if (keyGrowth > 0 && keys + keyGrowth > maxAssociationsPerRecord) return { outcome: 'linked-full', type, id };
  const count = item[linkCountAttribute];
  if (typeof count !== 'number') {
    if (linkDelta === 0) return { outcome: 'stale' };
    await backfillLinkCount(type, hubId, item);
    return { outcome: 'stale' };
  }
  if (linkDelta > 0 && linksToSelf && count + linkDelta > linksToSelf.max) return { outcome: 'linked-full', type, id };
  return { outcome: 'stale' };
}

/**
 * Adds linkCountAttribute to an item of a type that bounds its links with itself, counted from the
 * item's own associations, if the item has not changed since it was read (else the caller reads again).
 */
export async function backfillLinkCount(type: KeyedType, hubId: number, item: Record<string, unknown>): Promise<void> {
  const record = recordItem.read(item);
  await conditionalWrite(
    new UpdateCommand({
      TableName: tableName,
      Key: recordKey(type, hubId, record.id),
      UpdateExpression: `SET ${linkCountAttribute} = :count`,
      ConditionExpression: `version = :version AND attribute_not_exists(${linkCountAttribute})`,
      ExpressionAttributeValues: {
        ':count': associatedIdsOf(record.associations, type.id).size,
        ':version': record.version,
      },
    }),
  );
}

/**
 * Drops association keys (all those of one other record) from a record outside a transaction; a
 * counted link (`isCountedLink`: both records of a type that bounds its links with itself) also
 * lowers the record's count (an item without the count just loses the keys). A record that is gone
 * needs nothing.
 */
export async function removeAssociationKeys(
  hubId: number,
  type: KeyedType,
  id: string,
  keys: readonly string[],
  isCountedLink: boolean,
): Promise<void> {
  if (keys.length === 0) return;
  const placeholders = new ExpressionPlaceholders();
  const removes = `REMOVE ${keys.map((key) => `associations.${placeholders.name(key)}`).join(', ')}`;
  // Counted first; an older item without the count fails that and loses the keys alone (alternating, should it gain the count meanwhile).
  for (let attempt = 0; attempt < 4; attempt += 1) {
    const counted = isCountedLink && attempt % 2 === 0;
    const outcome = await conditionalWrite(
      new UpdateCommand({
        TableName: tableName,
        Key: recordKey(type, hubId, id),
        UpdateExpression: counted
          ? `${removes} ADD version :one, ${linkCountAttribute} :minusOne`
          : `${removes} ADD version :one`,
        ConditionExpression: counted
          ? `attribute_exists(pk) AND attribute_exists(${linkCountAttribute})`
          : isCountedLink
            ? `attribute_exists(pk) AND attribute_not_exists(${linkCountAttribute})`
            : 'attribute_exists(pk)',
        ...placeholders.attributes({ values: counted ? { ':one': 1, ':minusOne': -1 } : { ':one': 1 } }),
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    // Written; or no item came back: the record is gone, and has nothing to lose.
    if (outcome.written || !outcome.item) return;
  }
}

export interface EdgePage {
  holderIds: string[];
  hasMore: boolean;
}

/** The records of the holder type associated with one record of a type not stored: one Query per page, in id order. */
export async function listAssociationEdges(
  hubId: number,
  holder: KeyedType,
  objectTypeId: string,
  objectId: string,
  limit: number,
  afterHolderId: string | undefined,
): Promise<EdgePage> {
  const page = await queryPage(
    { pk: hubPartition(hubId), skPrefix: associationEdgePrefix(holder, objectTypeId, objectId), pageSize: limit + 1 },
    afterHolderId === undefined ? undefined : associationEdgeKey(hubId, holder, objectTypeId, objectId, afterHolderId),
  );
  const holderIds = page.items.map(holderIdOf).filter((id): id is string => typeof id === 'string');
  return { holderIds: holderIds.slice(0, limit), hasMore: holderIds.length > limit };
}

/**
 * Blocks a unique value for good (a GDPR delete of an address no record holds): its claim names
 * no record, so a create or an update that wants the value fails the claim's condition and is
 * refused (outcome unique-blocked), and lookups by the value find nothing. A value some record
 * holds is left as it is (false).
 */
export async function blockUniqueValue(
  type: KeyedType,
  hubId: number,
  value: UniqueValue,
  atIso: string,
): Promise<boolean> {
  const outcome = await conditionalWrite(
    new PutCommand({
      TableName: tableName,
      Item: { ...uniqueValueItem.item({ holderId: '', ...value }, { type, hubId }), blockedAt: atIso },
      ConditionExpression: 'attribute_not_exists(pk) OR attribute_exists(blockedAt)',
    }),
  );
  return outcome.written;
}

/**
 * Deletes a record for good (no recycle bin): its item (active or archived), its search projection
 * and its unique values, in one transaction on condition of the version read. `stale` when the
 * record changed meanwhile (the caller reads it again).
 */
export async function deleteRecordForGood(
  type: KeyedType,
  hubId: number,
  record: CrmRecord,
  isArchived: boolean,
  /** An active record's place in the ordered index (it leaves it and the count). */
  order?: OrderForms,
): Promise<'deleted' | 'stale'> {
  const writes: RoleWrite<'main' | 'other'>[] = [
    {
      role: 'main',
      write: {
        Delete: {
          TableName: tableName,
          Key: keyOf(type, hubId, record.id, isArchived),
          ConditionExpression: 'version = :expected',
          ExpressionAttributeValues: { ':expected': record.version },
        },
      },
    },
    // An active record leaves its projection, the ordered index and the count.
    ...(isArchived
      ? []
      : [
          searchProjectionDelete(type, hubId, record.id),
          ...orderIndexWrites(type, hubId, record.id, order, undefined),
          ...recordCountWrites(type, hubId, [{ shard: searchShardOf(record.id), delta: -1 }]),
        ].map((write) => ({ role: 'other' as const, write }))),
    ...record.uniqueValues.map((value) => ({
      role: 'other' as const,
      write: { Delete: { TableName: tableName, Key: uniqueValueKey(type, hubId, value.propertyName, value.value) } },
    })),
  ];
  const outcome = await transact(writes);
  if (outcome.committed) return 'deleted';
  if (outcome.reasons.some((reason) => reason.code === 'ConditionalCheckFailed')) return 'stale';
  const explained = outcomeOfCancellation(outcome);
  if (explained.outcome === 'contended') return 'stale';
  throw outcome.error;
}
