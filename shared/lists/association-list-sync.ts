import { mapConcurrently } from '../base/map-concurrently';
import { findList, findLists, type StoredList } from '../db/lists';
import { findRecord } from '../db/records';
import type { ObjectType } from '../objects/object-types';
import { searchFormsOf } from '../records/search-forms';
import { listMembershipChangesOf } from '../webhooks/list-membership-changes';
import { typedItemOf, type ChangeRecord } from '../webhooks/record-changes';
import { dynamicListsOf } from './dynamic-lists';
import { associationBranchesOf, associationLeavesOf, type ListFilterTree } from './list-filter-match';
import { referencesOf } from './list-references';
import { keyedTypeOfList } from './list-types';
import { reconcileRecordLists } from './record-lists';

/**
 * The part of ASSOCIATION filters a record's own write cannot see, from the table's stream (the
 * consumer that also keeps the association limit markers). A record's write evaluates its DYNAMIC
 * lists with its associations after the write and its associated records' memberships as read
 * (dynamic-lists.ts planListWrites), right at once. Two changes reach a record's ASSOCIATION
 * filters without being a write of it, and are followed here:
 *
 * - the other side of an association change: the record whose associations the write changed
 *   beside the one it wrote (its item's association keys change in the same transaction);
 * - a change of an associated record's membership of the list an ASSOCIATION filter names, or of
 *   its values when an ASSOCIATION branch reads records of its type: every record of the list's
 *   type associated with that record (at most maxAssociationsPerRecord) is evaluated again.
 *
 * Each record found is evaluated again from its stored values and associations, with its actual
 * memberships read (record-lists.ts reconcileRecordLists): the same outcome however often the
 * stream hands a change out, and a record written meanwhile was evaluated by that write. A
 * membership this writes is a change on the stream in turn, so lists that name lists that name
 * lists follow level by level. Records evaluated side by side: recordsInFlight.
 */

const recordsInFlight = 8;

export interface AssociationListSyncOptions {
  /** Only these accounts' changes (a local runtime sharing the table with other tests). */
  acceptsHub?: (hubId: number) => boolean;
}

interface RecordToCheck {
  hubId: number;
  type: ObjectType;
  recordId: string;
}

/** The association keys one image holds and the other does not. */
function changedAssociationKeys(
  before: Readonly<Record<string, string>> | undefined,
  after: Readonly<Record<string, string>> | undefined,
): string[] {
  const was = before ?? {};
  const is = after ?? {};
  return [...Object.keys(is).filter((key) => !(key in was)), ...Object.keys(was).filter((key) => !(key in is))];
}

/** What the DYNAMIC lists of a type read of their records' associated records: (type, association type) pairs. */
interface AssociationReads {
  pairs: { toObjectTypeId: string; associationTypeId: number }[];
  /** The types whose records' values ASSOCIATION branches read. */
  branchTypes: Set<string>;
}

/** Whether an association key (`<typeId>/<id>/<associationTypeId>`) is one an ASSOCIATION filter or branch reads. */
const isReadKey = (key: string, reads: AssociationReads): boolean =>
  reads.pairs.some((pair) => key.startsWith(`${pair.toObjectTypeId}/`) && key.endsWith(`/${pair.associationTypeId}`));

/** What the DYNAMIC lists of a type read through associations (from the write path's cache of them). */
async function readsOfType(hubId: number, objectTypeId: string): Promise<AssociationReads> {
  const view = await dynamicListsOf(hubId, objectTypeId);
  const reads: AssociationReads = { pairs: [], branchTypes: new Set() };
  for (const entry of view.entries) {
    const tree = entry.tree as ListFilterTree;
    for (const leaf of associationLeavesOf(tree)) reads.pairs.push(leaf);
    for (const branch of associationBranchesOf(tree)) {
      reads.pairs.push({ toObjectTypeId: branch.objectTypeId, associationTypeId: branch.associationTypeId });
      reads.branchTypes.add(branch.objectTypeId);
    }
  }
  return reads;
}

/** Whether two images of a record hold different property values. */
function valuesChanged(before: Readonly<Record<string, string>>, after: Readonly<Record<string, string>>): boolean {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  for (const name of names) if (before[name] !== after[name]) return true;
  return false;
}

/** The types of the records an association map names (`<typeId>/<id>/<associationTypeId>` keys). */
const associatedTypeIds = (associations: Readonly<Record<string, string>>): Set<string> =>
  new Set(Object.keys(associations).map((key) => key.split('/')[0] ?? ''));

/** The active DYNAMIC lists whose ASSOCIATION filters name the list (its references, read once per batch). */
async function countingListsOf(hubId: number, listId: string): Promise<StoredList[]> {
  const list = await findList(hubId, listId);
  const references = list ? referencesOf(list) : [];
  if (references.length === 0) return [];
  return (await findLists(hubId, references)).filter(
    (entry) =>
      entry.deletedAt === undefined &&
      entry.processingType === 'DYNAMIC' &&
      entry.filterTree !== undefined &&
      associationLeavesOf(entry.filterTree as ListFilterTree).some((leaf) => leaf.listId === listId),
  );
}

/** The records of one stream batch whose ASSOCIATION filters may have changed (see above). */
async function recordsToCheck(
  changes: readonly ChangeRecord[],
  options: AssociationListSyncOptions,
): Promise<RecordToCheck[]> {
  const found = new Map<string, RecordToCheck>();
  const add = (entry: RecordToCheck) => found.set(`${entry.hubId}/${entry.type.id}/${entry.recordId}`, entry);
  for (const change of changes) {
    const after = typedItemOf(change.newImage);
    const before = typedItemOf(change.oldImage);
    // An archive leaves every list (record-lists.ts leaveAllLists); archived items are not evaluated.
    if (!after || after.item.isArchived) continue;
    const { hubId } = after.item;
    if (options.acceptsHub && !options.acceptsHub(hubId)) continue;
    const previous = before && !before.item.isArchived ? before.item.record : undefined;
    const keys = changedAssociationKeys(previous?.associations, after.item.record.associations);
    if (keys.length > 0) {
      const reads = await readsOfType(hubId, after.type.id);
      if (keys.some((key) => isReadKey(key, reads))) add({ hubId, type: after.type, recordId: after.item.record.id });
    }
    // New values of a record whose type ASSOCIATION branches of an associated type's lists read.
    if (!previous || !valuesChanged(previous.properties, after.item.record.properties)) continue;
    const { associations } = after.item.record;
    for (const typeId of associatedTypeIds(associations)) {
      if (typeId === '') continue;
      const reads = await readsOfType(hubId, typeId);
      if (!reads.branchTypes.has(after.type.id)) continue;
      const type = keyedTypeOfList(typeId);
      const prefix = `${typeId}/`;
      for (const key of Object.keys(associations))
        if (key.startsWith(prefix)) add({ hubId, type, recordId: key.slice(prefix.length).split('/')[0] ?? '' });
    }
  }
  const counting = new Map<string, Promise<StoredList[]>>();
  for (const membership of listMembershipChangesOf(changes)) {
    const { hubId, listId } = membership;
    if (options.acceptsHub && !options.acceptsHub(hubId)) continue;
    const key = `${hubId}/${listId}`;
    if (!counting.has(key)) counting.set(key, countingListsOf(hubId, listId));
    const lists = await (counting.get(key) as Promise<StoredList[]>);
    if (lists.length === 0) continue;
    const member = await findRecord(keyedTypeOfList(membership.objectTypeId), hubId, membership.recordId);
    if (!member) continue;
    for (const list of lists) {
      const type = keyedTypeOfList(list.objectTypeId);
      const prefix = `${type.id}/`;
      for (const associationKey of Object.keys(member.associations))
        if (associationKey.startsWith(prefix))
          add({ hubId, type, recordId: associationKey.slice(prefix.length).split('/')[0] ?? '' });
    }
  }
  return [...found.values()].filter((entry) => entry.recordId !== '');
}

/**
 * The stream consumer's part for ASSOCIATION filters: every record of the batch's changes whose
 * ASSOCIATION filters may count differently is evaluated again. Answers how many were.
 */
export async function syncAssociationLists(
  changes: readonly ChangeRecord[],
  options: AssociationListSyncOptions = {},
): Promise<{ records: number }> {
  const records = await recordsToCheck(changes, options);
  await mapConcurrently(records, recordsInFlight, async ({ hubId, type, recordId }) => {
    const record = await findRecord(type, hubId, recordId);
    if (!record) return;
    await reconcileRecordLists(type, hubId, record, searchFormsOf(type, record));
  });
  return { records: records.length };
}
