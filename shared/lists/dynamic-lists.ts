import { nowMs } from '../base/clock';
import { mapConcurrently } from '../base/map-concurrently';
import type { TransactItem } from '../db/core';
import {
  readDynamicLists,
  readListCounters,
  readMembershipsOf,
  membershipCheck,
  membershipId,
  type DynamicListEntry,
  type DynamicListsView,
  type ListSizeDelta,
} from '../db/dynamic-lists';
import type { KeyedType } from '../db/keys';
import { lastChangeMs } from '../db/list-conversions';
import { searchShardOf } from '../db/keys';
import { membershipDeletes, membershipPuts } from '../db/lists';
import { findRecord, type RecordWrite } from '../db/records';
import { readProjectedRecords, type SearchForms } from '../db/search-projection';
import {
  associatedBranchKey,
  associatedCountKey,
  associatedIdsVia,
  associationBranchesOf,
  associationLeavesOf,
  listFilterMatcher,
  type AssociatedBranch,
  type AssociatedCount,
  type AssociatedListLeaf,
  type AssociatedRecords,
  type ListFilterTree,
  type ListMatcher,
  type MemberOf,
} from './list-filter-match';
import { keyedTypeOfList } from './list-types';

/**
 * DYNAMIC lists kept right at once: a record write evaluates the record's new values against the
 * DYNAMIC lists of its type and writes the memberships that begin or end in its own transaction.
 *
 * Which lists a write sees comes from this process's cache of the type's lists and their token
 * (shared/db/dynamic-lists.ts). The write's transaction checks that token on the record counter it
 * writes (or a ConditionCheck of one, shared/db/order-index.ts listsTokenAttribute), and every change
 * of the type's DYNAMIC lists sets a new token on all of them: a write that evaluated an older set
 * of lists fails, forgets the cache and evaluates the lists again. So the cache may be old without
 * any write going wrong, and a list's evaluation job can start at once: every write committed after
 * the list was made evaluated it, every write before is in what the job reads. While a list is
 * being evaluated, writes read its actual memberships and check them in their transaction, so the
 * job and the writes never undo each other.
 */

/** How long this process keeps a type's lists without reading them again (the token makes an older copy safe, only slower: its write fails once). */
export const listCacheMs = 5 * 60 * 1000;

interface CachedLists extends DynamicListsView {
  fetchedAtMs: number;
}

const cache = new Map<string, CachedLists>();
const cacheKey = (hubId: number, objectTypeId: string) => `${hubId}/${objectTypeId}`;

/** The type's DYNAMIC lists and their token, from the cache when it is fresh enough. */
export async function dynamicListsOf(hubId: number, objectTypeId: string): Promise<CachedLists> {
  const key = cacheKey(hubId, objectTypeId);
  const cached = cache.get(key);
  if (cached && nowMs() - cached.fetchedAtMs < listCacheMs) return cached;
  const view = { fetchedAtMs: nowMs(), ...(await readDynamicLists(hubId, objectTypeId)) };
  cache.set(key, view);
  return view;
}

/** The type's lists changed (or a write found the token moved): the next write reads them. */
export function forgetDynamicLists(hubId: number, objectTypeId: string): void {
  cache.delete(cacheKey(hubId, objectTypeId));
}

/** What a record write adds to its transaction for the DYNAMIC lists of its type. */
export interface RecordListWrites {
  items: TransactItem[];
  sizes: ListSizeDelta[];
  /** The token of the lists evaluated: the transaction checks it. */
  token: string | undefined;
}

const matcherCache = new WeakMap<object, ListMatcher>();

/**
 * Whether the record's forms (and memberships, for IN_LIST filters; its associated records' counted
 * memberships, for ASSOCIATION filters) match the list's filters (the matcher compiled once per entry).
 */
function matches(
  entry: DynamicListEntry,
  forms: SearchForms,
  now: number,
  memberOf?: MemberOf,
  associated?: AssociatedCount,
  records?: AssociatedRecords,
): boolean {
  if (entry.isTimeRelative)
    return listFilterMatcher(entry.tree as ListFilterTree, now)(forms, memberOf, associated, records);
  const tree = entry.tree as object;
  const cached = matcherCache.get(tree);
  if (cached) return cached(forms, memberOf, associated, records);
  const matcher = listFilterMatcher(entry.tree as ListFilterTree);
  matcherCache.set(tree, matcher);
  return matcher(forms, memberOf, associated, records);
}

/** Whether a list's filters read anything beyond the record's own values and memberships of its own type's lists. */
export const readsAssociations = (tree: ListFilterTree): boolean =>
  associationLeavesOf(tree).length > 0 || associationBranchesOf(tree).length > 0;

/** The ASSOCIATION branches of these entries, one per set of associated records read. */
function associationBranchesOfEntries(entries: readonly DynamicListEntry[]): AssociatedBranch[] {
  const byKey = new Map<string, AssociatedBranch>();
  for (const entry of entries)
    for (const branch of associationBranchesOf(entry.tree as ListFilterTree))
      if (!byKey.has(associatedBranchKey(branch))) byKey.set(associatedBranchKey(branch), branch);
  return [...byKey.values()];
}

/**
 * The associated records ASSOCIATION branches read: the records of the branch's type a record's
 * association keys name through its association type (at most maxAssociationsPerRecord), as their
 * search projections (one BatchGetItem per 100 per branch).
 */
export async function associatedRecordsOf(
  hubId: number,
  associations: Readonly<Record<string, string>>,
  branches: readonly AssociatedBranch[],
): Promise<AssociatedRecords> {
  const found = new Map<string, SearchForms[]>();
  await Promise.all(
    branches.map(async (branch) => {
      const ids = associatedIdsVia(associations, {
        toObjectTypeId: branch.objectTypeId,
        associationTypeId: branch.associationTypeId,
      });
      const records =
        ids.length === 0 ? new Map() : await readProjectedRecords(keyedTypeOfList(branch.objectTypeId), hubId, ids);
      found.set(
        associatedBranchKey(branch),
        [...records.values()].map((record) => record.forms),
      );
    }),
  );
  return (branch) => found.get(associatedBranchKey(branch)) ?? [];
}

/** The ASSOCIATION filters of these entries, one per count. */
function associationLeavesOfEntries(entries: readonly DynamicListEntry[]): AssociatedListLeaf[] {
  const byKey = new Map<string, AssociatedListLeaf>();
  for (const entry of entries)
    for (const leaf of associationLeavesOf(entry.tree as ListFilterTree))
      if (!byKey.has(associatedCountKey(leaf))) byKey.set(associatedCountKey(leaf), leaf);
  return [...byKey.values()];
}

/**
 * How many of a record's associated records each ASSOCIATION filter counts: the records its
 * association keys name through the filter's association type (at most maxAssociationsPerRecord),
 * and which of them are members of the filter's list (one BatchGetItem per 100 per filter).
 */
export async function associatedCountsOf(
  hubId: number,
  associations: Readonly<Record<string, string>>,
  leaves: readonly AssociatedListLeaf[],
): Promise<AssociatedCount> {
  const counts = new Map<string, number>();
  await Promise.all(
    leaves.map(async (leaf) => {
      const ids = associatedIdsVia(associations, leaf);
      counts.set(
        associatedCountKey(leaf),
        ids.length === 0 ? 0 : (await readMembershipsOf(hubId, [leaf.listId], ids)).size,
      );
    }),
  );
  return (leaf) => counts.get(associatedCountKey(leaf)) ?? 0;
}

/** A record write as the lists see it: its id, its values after (undefined: it leaves the type's active records) and before. */
export interface ListedWrite {
  recordId: string;
  /** The record's forms after the write; undefined when the write archives or deletes it. */
  forms: SearchForms | undefined;
  /** The record's forms before the write; undefined for a new record. */
  previousForms: SearchForms | undefined;
  isNew: boolean;
  /** Read every membership rather than infer it from the previous values (a retry after a failed check). */
  readActual?: boolean;
  /**
   * A change of the record's memberships of lists that are not DYNAMIC (a MANUAL list's add or
   * remove): only the DYNAMIC lists whose IN_LIST filters depend on them are evaluated, with these
   * memberships in place of the stored ones.
   */
  changedMemberships?: ReadonlyMap<string, boolean>;
  /** The record's associations after the write, for ASSOCIATION filters; when absent and a list has one, the record is read. */
  associations?: Readonly<Record<string, string>>;
}

/** The type's DYNAMIC lists a write evaluates: each after the lists its IN_LIST filters name, and (for a membership change) only those that depend on it. */
function listsToEvaluate(view: DynamicListsView, write: ListedWrite, now: number): DynamicListEntry[] {
  // A list converted by its scheduled date is static from then on, whether or not a write has converted it yet.
  const evaluated = orderedByDependency(view.entries).filter(
    (entry) =>
      entry.isProcessing ||
      entry.conversion === undefined ||
      !('conversionAtMs' in entry.conversion) ||
      entry.conversion.conversionAtMs > now,
  );
  const changed = write.changedMemberships;
  if (!changed) return evaluated;
  const affected = new Set(changed.keys());
  return evaluated.filter((entry) => {
    if (!(entry.listIds ?? []).some((listId) => affected.has(listId))) return false;
    affected.add(entry.listId);
    return true;
  });
}

const orderCache = new WeakMap<readonly DynamicListEntry[], DynamicListEntry[]>();

/**
 * The entries with every list before the DYNAMIC lists that name it in IN_LIST filters (the
 * creates and refilters refuse a cycle; a list of a cycle found anyway keeps its place).
 */
export function orderedByDependency(entries: readonly DynamicListEntry[]): DynamicListEntry[] {
  const cached = orderCache.get(entries);
  if (cached) return cached;
  const byId = new Map(entries.map((entry) => [entry.listId, entry]));
  const placed = new Set<string>();
  const ordered: DynamicListEntry[] = [];
  // At most one pass per entry: each pass places at least one, or places the rest as they are.
  for (let pass = 0; ordered.length < entries.length && pass <= entries.length; pass += 1) {
    const before = ordered.length;
    for (const entry of entries) {
      if (placed.has(entry.listId)) continue;
      const waits = (entry.listIds ?? []).some(
        (listId) => byId.has(listId) && !placed.has(listId) && listId !== entry.listId,
      );
      if (!waits) {
        placed.add(entry.listId);
        ordered.push(entry);
      }
    }
    if (ordered.length === before)
      for (const entry of entries)
        if (!placed.has(entry.listId)) {
          placed.add(entry.listId);
          ordered.push(entry);
        }
  }
  orderCache.set(entries, ordered);
  return ordered;
}

/**
 * The membership writes of one record write for the type's DYNAMIC lists: a put of each membership
 * that begins and a delete of each that ends, on the condition that it did not (did) exist. Whether
 * the record was a member is inferred from its previous values where the list is complete, not
 * time-relative and has no IN_LIST filter; otherwise (and for each membership that ends, whose join
 * time its key needs) read in one BatchGetItem. Lists are evaluated after the lists they name, so
 * an IN_LIST filter of a DYNAMIC list sees the membership this write gives it; a list of another
 * processing type is read, and its membership checked in the transaction (a concurrent add or
 * remove re-evaluates the record itself, change-memberships.ts). A list with ASSOCIATION filters is
 * read as well, and each filter counts the members of its list among the records the write's
 * associations name (associatedCountsOf); a change of those memberships, or of the other side of an
 * association, is followed from the stream (association-list-sync.ts). With no DYNAMIC lists it is
 * just the token (no list), which the write checks too.
 */
export async function planListWrites(type: KeyedType, hubId: number, write: ListedWrite): Promise<RecordListWrites> {
  const view = await dynamicListsOf(hubId, type.id);
  if (view.entries.length === 0) return { items: [], sizes: [], token: view.token };
  const now = nowMs();
  const evaluated = listsToEvaluate(view, write, now);
  const evaluatedIds = new Set(evaluated.map((entry) => entry.listId));
  const changed = write.changedMemberships;
  const staticLists = new Set<string>();
  for (const entry of evaluated)
    for (const listId of entry.listIds ?? [])
      if (!evaluatedIds.has(listId) && !changed?.has(listId)) staticLists.add(listId);
  const decisions = evaluated.map((entry) => {
    const dependsOnLists = (entry.listIds ?? []).length > 0 || readsAssociations(entry.tree as ListFilterTree);
    // An entry with IN_LIST or ASSOCIATION filters is decided below, once the lists it names are read.
    const isMember = dependsOnLists ? false : write.forms !== undefined && matches(entry, write.forms, now);
    const mustRead =
      !write.isNew &&
      (write.readActual === true ||
        dependsOnLists ||
        entry.isProcessing ||
        entry.isTimeRelative ||
        write.previousForms === undefined);
    const wasMember = write.isNew
      ? false
      : mustRead
        ? undefined
        : matches(entry, write.previousForms as SearchForms, now);
    return { entry, isMember, wasMember, mustRead, dependsOnLists };
  });
  const toRead = decisions.filter(
    (decision) => decision.mustRead || (!decision.dependsOnLists && decision.wasMember && !decision.isMember),
  );
  // A new record is in no list yet.
  const staticRead = write.isNew ? [] : [...staticLists];
  const actual = await readMembershipsOf(
    hubId,
    [...toRead.map((decision) => decision.entry.listId), ...staticRead],
    [write.recordId],
  );
  const isActualMember = (listId: string) => actual.has(membershipId(listId, write.recordId));
  const leaves = write.forms === undefined ? [] : associationLeavesOfEntries(evaluated);
  const branches = write.forms === undefined ? [] : associationBranchesOfEntries(evaluated);
  const associations =
    leaves.length === 0 && branches.length === 0
      ? {}
      : (write.associations ?? (await findRecord(type, hubId, write.recordId))?.associations ?? {});
  const [associated, records] = await Promise.all([
    leaves.length === 0 ? undefined : associatedCountsOf(hubId, associations, leaves),
    branches.length === 0 ? undefined : associatedRecordsOf(hubId, associations, branches),
  ]);
  const after = new Map<string, boolean>(changed ?? []);
  const memberOf: MemberOf = (listId) => after.get(listId) ?? (staticLists.has(listId) && isActualMember(listId));
  const items: TransactItem[] = [];
  const sizes: ListSizeDelta[] = [];
  for (const decision of decisions) {
    const { entry, mustRead } = decision;
    const isMember = decision.dependsOnLists
      ? write.forms !== undefined && matches(entry, write.forms, now, memberOf, associated, records)
      : decision.isMember;
    const { wasMember } = decision;
    const joinedAtMs = actual.get(membershipId(entry.listId, write.recordId));
    const was = mustRead || (wasMember && !isMember) ? joinedAtMs !== undefined : (wasMember ?? false);
    const list = { listId: entry.listId, objectTypeId: entry.objectTypeId, processingType: 'DYNAMIC' as const };
    const isKept = isMember !== was && (await isInactiveLongEnough(hubId, entry, now));
    after.set(entry.listId, isKept ? was : isMember);
    if (isKept) continue;
    if (isMember && !was) {
      items.push(...membershipPuts(hubId, list, { recordId: write.recordId, joinedAtMs: now }));
      sizes.push({ listId: entry.listId, added: 1, removed: 0 });
    } else if (!isMember && was && joinedAtMs !== undefined) {
      items.push(...membershipDeletes(hubId, list, { recordId: write.recordId, joinedAtMs }));
      sizes.push({ listId: entry.listId, added: 0, removed: 1 });
    } else if (entry.isProcessing) {
      // Unchanged on a list being evaluated: the job may write this membership meanwhile, and this write must not commit over it.
      items.push(membershipCheck(hubId, entry.listId, write.recordId, was));
    }
  }
  // The memberships of other lists the filters read: a concurrent add or remove fails this write, which evaluates again.
  for (const listId of staticRead) items.push(membershipCheck(hubId, listId, write.recordId, isActualMember(listId)));
  return { items, sizes, token: view.token };
}

/**
 * A list scheduled to convert after a period without membership changes that has had none for that
 * long is static from then on: a change would be its first since (one Query of its size counters,
 * only when a write would change the membership of such a list).
 */
async function isInactiveLongEnough(hubId: number, entry: DynamicListEntry, now: number): Promise<boolean> {
  if (entry.isProcessing || entry.conversion === undefined || !('offsetMs' in entry.conversion)) return false;
  const counters = await readListCounters(hubId, entry.listId);
  return (
    lastChangeMs({ ...counters, filtersChangedAtMs: entry.filtersChangedAtMs, createdAt: '' }) +
      entry.conversion.offsetMs <=
    now
  );
}

/** The shard of a transaction's size counters: its first record's. */
export const sizeShardOf = (recordId: string): number => searchShardOf(recordId);

/**
 * The writes of a grouped save (saveRecordsGrouped), each with its DYNAMIC list memberships planned
 * (an archive's are left to leaveAllLists). A write the group does not take is saved on its own by
 * the caller, which plans again.
 */
export async function withListWrites<W extends { write: RecordWrite; searchForms: SearchForms }>(
  type: KeyedType,
  hubId: number,
  entries: readonly W[],
): Promise<W[]> {
  return mapConcurrently(entries, 10, async (entry) => {
    if (entry.write.archive) return entry;
    const lists = await planListWrites(type, hubId, {
      recordId: entry.write.record.id,
      forms: entry.searchForms,
      previousForms: entry.write.expectedVersion === undefined ? undefined : entry.write.previousForms,
      isNew: entry.write.expectedVersion === undefined,
      associations: entry.write.record.associations,
    });
    return { ...entry, write: { ...entry.write, lists } };
  });
}
