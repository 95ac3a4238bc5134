import { nowMs } from '../base/clock';
import { config } from '../base/config';
import { tableName } from '../db/client';
import { getItem, queryPage, transact, type Item, type RoleWrite, type TransactItem } from '../db/core';
import {
  dynamicListCompleted,
  listSizeUpdate,
  membershipCheck,
  membershipId,
  readMembershipsInRange,
  readMembershipsOf,
  sumSizeDeltas,
  type ListSizeDelta,
} from '../db/dynamic-lists';
import { listKey, searchKey, searchPartition, searchShardOf, searchShards, type KeyedType } from '../db/keys';
import {
  findList,
  findLists,
  itemsPerMembership,
  membershipDeletes,
  membershipPuts,
  type StoredList,
} from '../db/lists';
import { findRecords, recordVersionCheck } from '../db/records';
import { projectedRecordOf, type SearchForms } from '../db/search-projection';
import type { ListEvaluationJob } from '../jobs/job-queue';
import { forgetDynamicLists } from './dynamic-lists';
import { readProjectedRecords } from '../db/search-projection';
import {
  associatedBranchKey,
  associatedCountKey,
  associatedIdsVia,
  associationBranchesOf,
  associationLeavesOf,
  listFilterMatcher,
  listIdsOfTree,
  type AssociatedBranch,
  type AssociatedCount,
  type AssociatedListLeaf,
  type AssociatedRecords,
  type ListFilterTree,
} from './list-filter-match';
import { keyedTypeOfList } from './list-types';

/**
 * The evaluation of a DYNAMIC list (created, refiltered, restored) or a SNAPSHOT list (created) over
 * the existing records of its type: a job (shared/jobs) whose chunks each read pages of the type's
 * search projection (every active record's forms and version), shard by shard, and write the
 * memberships that begin and (DYNAMIC) end. A chunk stops after `chunkMs` and answers where the next
 * goes on; the last marks the list COMPLETE.
 *
 * A DYNAMIC list's record writes change its memberships meanwhile (dynamic-lists.ts): each
 * membership the job writes is conditioned on the record's version as read and on the membership
 * not having changed, so a write that came between wins and the job reads that record again.
 * Every put is on the condition that the membership does not exist and every delete that it does,
 * so no membership is counted twice in the list's size or lost.
 *
 * A list with IN_LIST filters waits until the lists they name are evaluated (not PROCESSING), reads
 * each candidate's memberships of them, and checks those in the transaction that writes its change:
 * a membership change meanwhile (which evaluates the record for this list itself) fails it, and the
 * record is read and decided again.
 *
 * A DYNAMIC list whose filters compare with the current time (rolling ranges, NOW and TODAY time
 * points) is evaluated again every config.listRefreshMs after each evaluation completes, so a record
 * that crosses a boundary by the passing of time alone joins or leaves it: the same chunks, with the
 * list COMPLETE throughout (record writes read such a list's actual memberships anyway, and every
 * change the job writes is conditioned on the record's version and the membership as read). The
 * chain ends with the filters it is of: a refilter, a delete or a conversion stops it, and the
 * evaluation that a refilter or restore starts begins a new one.
 *
 * A list with ASSOCIATION filters waits the same way for the lists they name, reads each page's
 * records (their associations) and the memberships of their associated records in those lists. A
 * change of those memberships meanwhile is the stream's to follow (association-list-sync.ts).
 */

/** How long one chunk runs (the job function's timeout is 60 s). */
export const chunkMs = 20_000;
/** Records a Query page of the projection brings. */
const pageItems = 200;
/** The items of a transaction the size write leaves for membership changes. */
const changeItems = 99;
/** How long a chunk that finds a list its IN_LIST filters name PROCESSING waits, and how many times (an hour in all) before it leaves the list PROCESSING. */
const waitMs = 1000;
const maxWaits = 3600;
/** Times a record whose condition failed is read again before the chunk gives up on it (a record written that often meanwhile is evaluated by those writes). */
const recordAttempts = 3;

interface Candidate {
  id: string;
  version: number;
  forms: SearchForms;
}

const formsOf = (item: Item): Candidate => ({ id: String(item.sk), ...projectedRecordOf(item) });

/** The memberships of the lists a list's IN_LIST filters name, as read for the candidates at hand. */
interface NamedMemberships {
  /** The named lists that are active (a deleted one has no members). */
  listIds: readonly string[];
  isMember: (listId: string, recordId: string) => boolean;
}

interface Change {
  candidate: Candidate;
  join: boolean;
  joinedAtMs: number;
}

type Role = 'record' | 'member' | 'size';

function changeWrites(
  hubId: number,
  list: StoredList,
  change: Change,
  isDynamic: boolean,
  named: NamedMemberships,
): RoleWrite<Role>[] {
  const { candidate } = change;
  const writes: RoleWrite<Role>[] = [];
  for (const listId of named.listIds)
    writes.push({
      role: 'member',
      write: membershipCheck(hubId, listId, candidate.id, named.isMember(listId, candidate.id)),
    });
  if (isDynamic) {
    writes.push({
      role: 'record',
      write: recordVersionCheck(keyedTypeOfList(list.objectTypeId), hubId, candidate.id, candidate.version),
    });
  }
  const member = { recordId: candidate.id, joinedAtMs: change.joinedAtMs };
  const items = change.join ? membershipPuts(hubId, list, member) : membershipDeletes(hubId, list, member);
  for (const write of items) writes.push({ role: 'member', write });
  return writes;
}

/** The size write of changes written together: a DYNAMIC list's counter, a SNAPSHOT list's item. */
function sizeWrites(hubId: number, list: StoredList, changes: readonly Change[], shard: number): RoleWrite<Role>[] {
  const at = new Date(nowMs()).toISOString();
  const deltas: ListSizeDelta[] = sumSizeDeltas(
    changes.map((change) => ({ listId: list.listId, added: change.join ? 1 : 0, removed: change.join ? 0 : 1 })),
  );
  return deltas.map((delta): RoleWrite<Role> => {
    if (list.processingType === 'DYNAMIC') return { role: 'size', write: listSizeUpdate(hubId, delta, shard, at) };
    const write: TransactItem = {
      Update: {
        TableName: tableName,
        Key: listKey(hubId, list.listId),
        UpdateExpression: `ADD #size :delta SET ${delta.added > 0 ? 'lastRecordAddedAt' : 'lastRecordRemovedAt'} = :at`,
        ExpressionAttributeNames: { '#size': 'size' },
        ExpressionAttributeValues: { ':delta': delta.added - delta.removed, ':at': at },
      },
    };
    return { role: 'size', write };
  });
}

/** The record's projection item again (its current forms and version), undefined when it is no longer active. */
async function reread(type: KeyedType, hubId: number, id: string): Promise<Candidate | undefined> {
  const item = await getItem(searchKey(type, hubId, id));
  return item ? formsOf(item) : undefined;
}

/**
 * Writes the changes of one page: together where they all hold; otherwise one by one, a record
 * whose version moved read again and decided again (a write meanwhile may have done it already).
 */
async function writeChanges(
  hubId: number,
  list: StoredList,
  type: KeyedType,
  changes: readonly Change[],
  decide: (
    candidate: Candidate,
    joinedAtMs: number | undefined,
    named: NamedMemberships,
    associated: AssociatedCounts,
  ) => Change | undefined,
  shard: number,
  named: NamedMemberships,
  reads: AssociatedReads,
): Promise<void> {
  const isDynamic = list.processingType === 'DYNAMIC';
  const perChange = (isDynamic ? 1 : 0) + itemsPerMembership + named.listIds.length;
  const changesPerTransaction = Math.floor(changeItems / perChange);
  for (let start = 0; start < changes.length; start += changesPerTransaction) {
    const chunk = changes.slice(start, start + changesPerTransaction);
    const together = await transact([
      ...chunk.flatMap((change) => changeWrites(hubId, list, change, isDynamic, named)),
      ...sizeWrites(hubId, list, chunk, shard),
    ]);
    if (together.committed) continue;
    if (!together.reasons.some((reason) => reason.code === 'ConditionalCheckFailed')) throw together.error;
    for (const first of chunk) {
      let change: Change | undefined = first;
      let memberships = named;
      for (let attempt = 0; change && attempt < recordAttempts; attempt += 1) {
        const alone = await transact([
          ...changeWrites(hubId, list, change, isDynamic, memberships),
          ...sizeWrites(hubId, list, [change], shard),
        ]);
        if (alone.committed) break;
        if (!alone.reasons.some((reason) => reason.code === 'ConditionalCheckFailed')) throw alone.error;
        const candidate = await reread(type, hubId, change.candidate.id);
        if (!candidate) break;
        const joined = await readMembershipsOf(hubId, [list.listId, ...named.listIds], [candidate.id]);
        memberships = namedMembershipsOf(named.listIds, joined);
        const associated = await associatedCountsOfRecords(type, hubId, reads, [candidate.id]);
        change = decide(candidate, joined.get(membershipId(list.listId, candidate.id)), memberships, associated);
      }
    }
  }
}

const namedMembershipsOf = (listIds: readonly string[], found: ReadonlyMap<string, number>): NamedMemberships => ({
  listIds,
  isMember: (listId, recordId) => found.has(membershipId(listId, recordId)),
});

/**
 * The lists the IN_LIST filters name that are active, or 'wait' while one of the lists the filters
 * name (IN_LIST and ASSOCIATION alike) is PROCESSING (its members are not yet what its filters say).
 */
async function namedListsOf(hubId: number, tree: ListFilterTree): Promise<string[] | 'wait'> {
  const named = listIdsOfTree(tree);
  const counted = associationLeavesOf(tree).map((leaf) => leaf.listId);
  if (named.length === 0 && counted.length === 0) return [];
  const lists = (await findLists(hubId, [...new Set([...named, ...counted])])).filter(
    (entry) => entry.deletedAt === undefined,
  );
  if (lists.some((entry) => entry.processingStatus === 'PROCESSING')) return 'wait';
  return lists.filter((entry) => named.includes(entry.listId)).map((entry) => entry.listId);
}

/** Each record's counts of associated members (ASSOCIATION filters) and associated records' forms (ASSOCIATION branches). */
interface AssociatedCounts {
  count: (recordId: string) => AssociatedCount;
  records: (recordId: string) => AssociatedRecords;
}

const noAssociatedCounts: AssociatedCounts = { count: () => () => 0, records: () => () => [] };

/** What a list's filters read of each record's associated records. */
interface AssociatedReads {
  leaves: readonly AssociatedListLeaf[];
  branches: readonly AssociatedBranch[];
}

/**
 * The ASSOCIATION filters' counts and the ASSOCIATION branches' records of these records: one
 * BatchGetItem of the records per 100 (their associations), then per filter one of the memberships
 * of the records they name through its association type, and per branch one of those records'
 * search projections, all records' together.
 */
async function associatedCountsOfRecords(
  type: KeyedType,
  hubId: number,
  reads: AssociatedReads,
  recordIds: readonly string[],
): Promise<AssociatedCounts> {
  const { leaves, branches } = reads;
  if ((leaves.length === 0 && branches.length === 0) || recordIds.length === 0) return noAssociatedCounts;
  const records = await findRecords(type, hubId, recordIds);
  const counts = new Map<string, number>();
  const forms = new Map<string, AssociatedRecordForms>();
  await Promise.all([
    ...branches.map(async (branch) => {
      const named = new Map<string, string[]>();
      for (const [id, record] of records)
        named.set(
          id,
          associatedIdsVia(record.associations, {
            toObjectTypeId: branch.objectTypeId,
            associationTypeId: branch.associationTypeId,
          }),
        );
      const all = [...new Set([...named.values()].flat())];
      const found =
        all.length === 0 ? new Map() : await readProjectedRecords(keyedTypeOfList(branch.objectTypeId), hubId, all);
      for (const [id, ids] of named)
        forms.set(
          `${id}/${associatedBranchKey(branch)}`,
          ids.flatMap((other) => {
            const projected = found.get(other);
            return projected ? [projected.forms] : [];
          }),
        );
    }),
    ...leaves.map(async (leaf) => {
      const named = new Map<string, string[]>();
      for (const [id, record] of records) named.set(id, associatedIdsVia(record.associations, leaf));
      const all = [...new Set([...named.values()].flat())];
      const members = all.length === 0 ? new Map() : await readMembershipsOf(hubId, [leaf.listId], all);
      for (const [id, ids] of named)
        counts.set(
          `${id}/${associatedCountKey(leaf)}`,
          ids.filter((other) => members.has(membershipId(leaf.listId, other))).length,
        );
    }),
  ]);
  return {
    count: (recordId) => (leaf) => counts.get(`${recordId}/${associatedCountKey(leaf)}`) ?? 0,
    records: (recordId) => (branch) => forms.get(`${recordId}/${associatedBranchKey(branch)}`) ?? [],
  };
}

type AssociatedRecordForms = ReturnType<AssociatedRecords>;

/** Marks the evaluation done: the list COMPLETE, its entry no longer processing; false when its filters changed meanwhile. */
async function complete(hubId: number, list: StoredList): Promise<boolean> {
  const writes: RoleWrite<'list' | 'entry'>[] = [
    {
      role: 'list',
      write: {
        Update: {
          TableName: tableName,
          Key: listKey(hubId, list.listId),
          UpdateExpression: 'SET processingStatus = :complete',
          ConditionExpression: 'filtersChangedAtMs = :changed AND attribute_not_exists(deletedAt)',
          ExpressionAttributeValues: { ':complete': 'COMPLETE', ':changed': list.filtersChangedAtMs },
        },
      },
    },
  ];
  if (list.processingType === 'DYNAMIC')
    writes.push({
      role: 'entry',
      write: dynamicListCompleted(hubId, {
        listId: list.listId,
        objectTypeId: list.objectTypeId,
        tree: list.filterTree,
        isTimeRelative: list.isTimeRelative === true,
        isProcessing: false,
        filtersChangedAtMs: list.filtersChangedAtMs ?? 0,
      }),
    });
  const outcome = await transact(writes);
  if (outcome.committed) {
    forgetDynamicLists(hubId, list.objectTypeId);
    return true;
  }
  if (outcome.reasons.some((reason) => reason.code === 'ConditionalCheckFailed')) return false;
  throw outcome.error;
}

/** One chunk of a list's evaluation: the next message, or undefined when the list is done (or the job superseded). */
export async function evaluateListChunk(
  job: ListEvaluationJob,
  budgetMs: number = chunkMs,
): Promise<ListEvaluationJob | undefined> {
  const stopAt = nowMs() + budgetMs;
  const list = await findList(job.hubId, job.listId);
  // Deleted, or refiltered since: that change started its own evaluation.
  if (!list || list.deletedAt !== undefined || list.filtersChangedAtMs !== job.filtersChangedAtMs) return undefined;
  if (list.processingType !== 'DYNAMIC' && list.processingType !== 'SNAPSHOT') return undefined;
  const type = keyedTypeOfList(list.objectTypeId);
  const tree = list.filterTree as ListFilterTree;
  const reads: AssociatedReads = { leaves: associationLeavesOf(tree), branches: associationBranchesOf(tree) };
  const { delayMs: _delay, ...scan } = job;
  const namedIds = await namedListsOf(job.hubId, tree);
  if (namedIds === 'wait') {
    const waits = (job.waits ?? 0) + 1;
    return waits > maxWaits ? undefined : { ...scan, waits, delayMs: waitMs };
  }
  let shard = job.shard;
  let after = job.after;
  while (shard < searchShards) {
    const pk = searchPartition(type, job.hubId, shard);
    const page = await queryPage({ pk, pageSize: pageItems }, after === undefined ? undefined : { pk, sk: after });
    // An item outside its home shard (an older shard count's, until the backfill moves it) is read in its home shard.
    const candidates = page.items.map(formsOf).filter((candidate) => searchShardOf(candidate.id) === shard);
    const now = nowMs();
    const matcher = listFilterMatcher(tree, now);
    // A Query of each list's members in the page's range of ids: a new list has none to read.
    const memberships = await readMembershipsInRange(
      job.hubId,
      [list.listId, ...namedIds],
      candidates.map((candidate) => candidate.id),
    );
    const named = namedMembershipsOf(namedIds, memberships);
    const counts = await associatedCountsOfRecords(
      type,
      job.hubId,
      reads,
      candidates.map((candidate) => candidate.id),
    );
    const decide = (
      candidate: Candidate,
      joinedAtMs: number | undefined,
      read: NamedMemberships,
      associated: AssociatedCounts,
    ): Change | undefined => {
      const isMember = matcher(
        candidate.forms,
        (listId) => read.isMember(listId, candidate.id),
        associated.count(candidate.id),
        associated.records(candidate.id),
      );
      if (isMember && joinedAtMs === undefined) return { candidate, join: true, joinedAtMs: nowMs() };
      // A SNAPSHOT list only gains members from its filters; a DYNAMIC one also loses those that no longer match.
      if (!isMember && joinedAtMs !== undefined && list.processingType === 'DYNAMIC')
        return { candidate, join: false, joinedAtMs };
      return undefined;
    };
    const changes = candidates.flatMap((candidate) => {
      const change = decide(candidate, memberships.get(membershipId(list.listId, candidate.id)), named, counts);
      return change ? [change] : [];
    });
    await writeChanges(job.hubId, list, type, changes, decide, shard, named, reads);
    if (page.nextKey) after = String(page.nextKey.sk);
    else {
      shard += 1;
      after = undefined;
    }
    if (nowMs() >= stopAt && shard < searchShards) return { ...scan, shard, after };
  }
  const isComplete = await complete(job.hubId, list);
  // A DYNAMIC list whose filters compare with the current time is evaluated again, every listRefreshMs.
  if (isComplete && list.processingType === 'DYNAMIC' && list.isTimeRelative === true)
    return {
      kind: 'list-evaluation',
      hubId: job.hubId,
      listId: job.listId,
      filtersChangedAtMs: job.filtersChangedAtMs,
      shard: 0,
      delayMs: config.listRefreshMs,
    };
  return undefined;
}
