import type { AssociationType } from '../association-types/association-types';
import { specResolver, type ResolvedType } from '../associations/batch-associations';
import {
  changePairs,
  maxStoredPairsPerWrite,
  withImplied,
  type Pair,
  type PairChange,
} from '../associations/record-associations';
import { AppError, ServiceUnavailableError, ValidationError } from '../base/errors';
import { mapConcurrently } from '../base/map-concurrently';
import { customTypeTokens, withAccountTypes } from '../objects/account-object-types';
import { requireStoredObjectType, singularWords, type ObjectType } from '../objects/object-types';
import type { PropertySchema } from '../properties/type-properties';
import {
  createPreparedRecords,
  requireFreeUniqueValues,
  schemaForInputs,
  standardUniqueValues,
  type CreateOutcome,
} from '../records/batch-records';
import { prepareRecord, type PreparedRecord } from '../records/create-record';
import { newAccountLookups } from '../records/account-values';
import type { Actor, RawProperties } from '../records/record-values';
import { deleteRecordForGoodById } from '../records/archive-record';
import { findLists, removeListForGood } from '../db/lists';
import { changeMemberships } from '../lists/change-memberships';
import { requireListObjectType } from '../lists/list-types';
import { listNameDigest } from '../lists/list-view';
import { dynamicRemovalOf } from '../lists/list-conversion-run';
import { createList, requireListName } from '../lists/manage-lists';
import { ownerOfTestAccount, requireTestAccount, type Developer } from './access';
import { maxFixtureAssociations, maxFixtureLists, maxFixtureMembers, maxFixtureRecords } from './fixture-limits';

export { maxFixtureAssociations, maxFixtureLists, maxFixtureMembers, maxFixtureRecords } from './fixture-limits';
/** Inputs of one batch create (the API's batch limit). */
const recordsPerBatch = 100;

/** Time kept before the function's timeout for answering, beyond what removing the call's writes takes. */
const answerReserveMs = 1000;
/**
 * Removing a call's records for good (a read and a transaction per record, ten at a time) against the
 * time the batch create took to write them (a few grouped transactions): 200 records on a loaded 2-core
 * machine took 0.7 to 2.7 times their writes' time to remove (writes of 1.5 to 13 s), and up to 3.8
 * times where the writes took about a second; budgeted at 3 times, plus removalBaseMs.
 */
const removalPerRecordWriteMs = 3;
/** What any removal may take beyond its share of the writes' time: the whole of it for writes of about a second. */
const removalBaseMs = 1000;
/**
 * Removing the pairs of a call's associations (their items go with their records' removal) against the
 * time the pair changes took to write them (one transaction per holder): 2,000 pairs added up to 0.57 of
 * their writes' time to removing their records; budgeted at 0.6.
 */
const removalPerPairWriteMs = 0.6;

const outOfTime = "they did not fit in one call's time";

/** The 503 of a load that stopped before it finished: nothing it wrote remains; retrying (or smaller calls) can succeed. */
function notLoaded(reason: string): ServiceUnavailableError {
  return new ServiceUnavailableError(
    `The fixtures were not loaded: ${reason}; nothing was written. Retry the request, or load fewer records per call.`,
    { headers: { 'retry-after': '1' } },
  );
}

/**
 * Removing a call's lists (a Query of each one's membership partition and a transaction) against the
 * time creating them took (an id from the sequence and a transaction each): 20 empty lists took 0.6
 * to 1.05 times their creation's time to remove; budgeted at 1.5.
 */
const removalPerListWriteMs = 1.5;
/**
 * Removing a call's memberships (their pages, then their items in transactions as full as the add's)
 * against the time the membership add took to write them: 0.6 to 1.05 times their writing time for
 * one call alone, up to 1.9 times for three calls at once on a loaded 2-core machine (load average
 * 13); budgeted at 2.
 */
const removalPerMemberWriteMs = 2;

/**
 * The writes of a call, in this order: the lists (one after another), the records' batches (one after
 * another), the associations' pair changes, then the lists' members.
 */
type WritePhase = 'lists' | 'records' | 'pairs' | 'members';

/** What removing a phase's writes takes against the time the phase spent writing them. */
const removalPerWriteMs: Record<WritePhase, number> = {
  lists: removalPerListWriteMs,
  records: removalPerRecordWriteMs,
  pairs: removalPerPairWriteMs,
  members: removalPerMemberWriteMs,
};

/**
 * When the writes must stop: the time left must always hold removing everything written so far
 * (estimated from each phase's time spent writing, at the measured rates above) and the answer. Before a
 * step of the writes, that must still hold once the step (as long as the longest of its phase so far)
 * is written too; within a batch of records, the batch asks before each of its writes (isOutOfTime).
 */
export class WriteClock {
  /** The phases in the order they began, each with when it began; the first began with the clock. */
  private readonly phases: { phase: WritePhase; since: number }[];
  private readonly longestStepMs: Record<WritePhase, number> = { lists: 0, records: 0, pairs: 0, members: 0 };
  constructor(
    private readonly deadlineMs: number,
    firstPhase: WritePhase = 'records',
  ) {
    this.phases = [{ phase: firstPhase, since: performance.now() }];
  }

  /** What removing the writes done by `at` would take: each phase's time at its rate. */
  private removalMs(at: number): number {
    let total = removalBaseMs;
    this.phases.forEach(({ phase, since }, index) => {
      const until = Math.min(at, this.phases[index + 1]?.since ?? at);
      total += Math.max(0, until - since) * removalPerWriteMs[phase];
    });
    return total;
  }

  private isPastAt(at: number): boolean {
    return at + this.removalMs(at) + answerReserveMs > this.deadlineMs;
  }

  /** Whether a write started now might leave too little time to remove everything. */
  readonly isOutOfTime = (): boolean => this.isPastAt(performance.now());

  /** Throws the 503 when the next step of the phase (and undoing it) might not fit before the deadline; a phase begins at its first step. */
  requireRoomForStep(phase: WritePhase): void {
    if (!this.phases.some((begun) => begun.phase === phase)) this.phases.push({ phase, since: performance.now() });
    if (this.isPastAt(performance.now() + this.longestStepMs[phase])) throw notLoaded(outOfTime);
  }

  async step<T>(phase: WritePhase, write: () => Promise<T>): Promise<T> {
    this.requireRoomForStep(phase);
    const at = performance.now();
    try {
      return await write();
    } finally {
      this.longestStepMs[phase] = Math.max(this.longestStepMs[phase], performance.now() - at);
    }
  }
}

export interface FixtureRecord {
  ref: string;
  objectType: string;
  properties: RawProperties;
}

export interface FixtureAssociation {
  from: string;
  to: string;
  types: readonly { associationCategory?: string; associationTypeId: number }[];
}

/**
 * A list to create: its type named by `objectTypeId` (as the lists API's create names it) or by
 * `objectType` (any token a record's objectType takes); `members` are refs of this call's records.
 */
export interface FixtureList {
  ref?: string;
  name: string;
  objectTypeId?: string;
  objectType?: string;
  processingType: string;
  filterBranch?: Record<string, unknown>;
  members?: readonly string[];
}

export interface FixturesInput {
  records?: readonly FixtureRecord[];
  associations?: readonly FixtureAssociation[];
  lists?: readonly FixtureList[];
}

/**
 * Another call's refusal as this call answers it: its status, category, message and headers, with
 * its context's fields named under `path` when one is given (`lists[1]`: `lists[1].name`).
 */
class RefusedInputError extends AppError {
  readonly status: number;
  readonly category: string;
  constructor(error: AppError, path?: string) {
    const context = Object.fromEntries(
      Object.entries(error.context ?? {}).map(([field, values]) => [path ? `${path}.${field}` : field, values]),
    );
    super(error.message, {
      context,
      ...(error.subCategory ? { subCategory: error.subCategory } : {}),
      ...(error.headers ? { headers: error.headers } : {}),
    });
    this.status = error.status;
    this.category = error.category;
  }
}

/** Runs `work`; an AppError it throws names its fields under `path`. */
async function atPath<T>(path: string, work: () => Promise<T> | T): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw error instanceof AppError ? new RefusedInputError(error, path) : error;
  }
}

interface Prepared {
  entry: FixtureRecord;
  type: ObjectType;
  prepared: PreparedRecord;
}

/** Every record checked as its create would be (the type, its properties, the account's values), before anything is written. */
async function prepareAll(actor: Actor, entries: readonly FixtureRecord[]): Promise<Prepared[]> {
  const seenRefs = new Set<string>();
  entries.forEach((entry, index) => {
    if (seenRefs.has(entry.ref))
      throw new ValidationError(`Duplicate fixture ref ${entry.ref}`, {
        context: { [`records[${index}].ref`]: [entry.ref] },
      });
    seenRefs.add(entry.ref);
  });
  const types = entries.map((entry) => requireStoredObjectType(entry.objectType));
  const schemas = new Map<ObjectType, PropertySchema>();
  for (const type of new Set(types))
    schemas.set(
      type,
      await schemaForInputs(
        type,
        actor.hubId,
        entries.filter((_, index) => types[index] === type),
      ),
    );
  const lookups = newAccountLookups();
  const prepared: Prepared[] = [];
  for (const [index, entry] of entries.entries()) {
    const type = types[index] as ObjectType;
    prepared.push({
      entry,
      type,
      prepared: await prepareRecord(actor, type, { properties: entry.properties }, schemas.get(type), lookups),
    });
  }
  // Unique values within the call (any unique property), then the types whose duplicate answers the whole request (contacts' 409).
  const claimed = new Map<string, string>();
  for (const { entry, type, prepared: record } of prepared) {
    for (const unique of record.uniqueValues) {
      const key = `${type.id}\u0000${unique.propertyName}\u0000${unique.value}`;
      const first = claimed.get(key);
      if (first !== undefined)
        throw new ValidationError(
          `Duplicate values of ${unique.propertyName} found in fixtures ${first} and ${entry.ref}: [${unique.value}]. Values must be unique`,
          { context: { [unique.propertyName]: [unique.value] } },
        );
      claimed.set(key, entry.ref);
    }
  }
  for (const type of new Set(types)) {
    const ofType = prepared.filter((entry) => entry.type === type);
    await requireFreeUniqueValues(
      type,
      actor.hubId,
      ofType.map(({ prepared: record }) => ({ values: standardUniqueValues(type, record.properties, record.schema) })),
    );
  }
  return prepared;
}

/** Fixture associations written at once (independent groups of records; see associateAll). */
const associationConcurrency = 8;

/**
 * An association checked before anything is written: the record that holds it (the end with more
 * associations in the call, see associateAll), the other record, and its types as the holder holds them.
 */
interface CheckedAssociation {
  holder: Prepared;
  other: Prepared;
  add: AssociationType[];
}

/** One record's pair changes: the record holds its side and each write also updates the other record's side. */
interface HolderChanges {
  type: ObjectType;
  ref: string;
  changes: PairChange[];
}

/**
 * Adds each association's types to its pair, as the v4 create does (the types a pair holds stay; a
 * primary type also adds its unlabeled one), through the same pair changes (record-associations.ts
 * changePairs: one read and one transaction per record, at most maxStoredPairsPerWrite pairs each,
 * retried on a stale read). Each pair is written from the end with more associations in the call
 * (its types then as that end holds them), so a company with a hundred contacts is one record's
 * write, not a hundred that each change the company. Records linked through associations form a
 * group whose writes run one after another; groups share no record and run side by side, so no
 * two writes of the call change one record at once. An association a limit refuses answers its error.
 */
async function associateAll(
  actor: Actor,
  associations: readonly CheckedAssociation[],
  ids: ReadonlyMap<string, string>,
  clock: WriteClock,
): Promise<void> {
  const holders = new Map<string, HolderChanges>();
  // Union-find over refs: the groups of records that associations connect.
  const parent = new Map<string, string>();
  const root = (ref: string): string => {
    let at = ref;
    while (parent.has(at) && parent.get(at) !== at) at = parent.get(at) as string;
    parent.set(ref, at);
    return at;
  };
  for (const { holder, other, add } of associations) {
    const entry = holders.get(holder.entry.ref) ?? { type: holder.type, ref: holder.entry.ref, changes: [] };
    entry.changes.push({
      other: other.type,
      otherId: ids.get(other.entry.ref) ?? '',
      next: (current) => ({ keep: current, add }),
    });
    holders.set(holder.entry.ref, entry);
    parent.set(root(holder.entry.ref), root(other.entry.ref));
  }
  const groups = new Map<string, HolderChanges[]>();
  for (const holder of holders.values()) {
    const group = groups.get(root(holder.ref));
    if (group) group.push(holder);
    else groups.set(root(holder.ref), [holder]);
  }
  await mapConcurrently([...groups.values()], associationConcurrency, async (group) => {
    for (const holder of group) {
      for (let start = 0; start < holder.changes.length; start += maxStoredPairsPerWrite) {
        const { record, rejected } = await clock.step('pairs', () =>
          changePairs(
            actor,
            holder.type,
            ids.get(holder.ref) ?? '',
            holder.changes.slice(start, start + maxStoredPairsPerWrite),
          ),
        );
        if (!record) throw notLoaded('a record of the call was removed meanwhile');
        const [refused] = rejected.values();
        if (refused) throw refused;
      }
    }
  });
}

/**
 * The created records, removed for good again (a write of the call failed after others had
 * succeeded), ten at a time; one still being changed after every retry is left (the call answers its error).
 */
async function removeCreated(hubId: number, created: readonly { type: ObjectType; id: string }[]): Promise<void> {
  await mapConcurrently(created, 10, ({ type, id }) => deleteRecordForGoodById(type, hubId, id, () => undefined));
}

/** A fixture list checked before anything is written: its type's id and its members' records. */
interface CheckedList {
  entry: FixtureList;
  path: string;
  objectTypeId: string;
  members: Prepared[];
}

/**
 * Every list checked before anything is written: refs and names unique in the call (names compared
 * as the API compares them, ignoring case), a valid name, a type the lists API takes, and members
 * that are records of this call of the list's type. What only the create itself decides
 * (processingType and filterBranch, a name the account already holds, the account's cap on lists) it
 * answers when the lists are written, before every other write of the call.
 */
async function checkLists(
  hubId: number,
  lists: readonly FixtureList[],
  byRef: ReadonlyMap<string, Prepared>,
): Promise<CheckedList[]> {
  const refs = new Map<string, number>();
  const names = new Map<string, number>();
  const checked: CheckedList[] = [];
  for (const [index, entry] of lists.entries()) {
    const path = `lists[${index}]`;
    if (entry.ref !== undefined) {
      const first = refs.get(entry.ref);
      if (first !== undefined)
        throw new ValidationError(`Duplicate list ref ${entry.ref}: lists[${first}] has it too`, {
          context: { [`${path}.ref`]: [entry.ref] },
        });
      refs.set(entry.ref, index);
    }
    const name = requireListName(entry.name, `${path}.name`);
    const first = names.get(listNameDigest(name));
    if (first !== undefined)
      throw new ValidationError(
        `Duplicate list name ${name}: lists[${first}] has it too (names are compared ignoring case)`,
        { context: { [`${path}.name`]: [name] } },
      );
    names.set(listNameDigest(name), index);
    if ((entry.objectTypeId === undefined) === (entry.objectType === undefined))
      throw new ValidationError('A fixture list names its type by objectTypeId or by objectType: one of them', {
        context: { [`${path}.objectTypeId`]: [entry.objectTypeId ?? ''] },
      });
    // objectTypeId as the lists API's create takes it; objectType as a record's (its id then checked the same way).
    const type = await atPath(path, () =>
      entry.objectTypeId !== undefined
        ? requireListObjectType(hubId, entry.objectTypeId, 'objectTypeId')
        : requireListObjectType(hubId, requireStoredObjectType(entry.objectType ?? '').id, 'objectType'),
    );
    const members: Prepared[] = [];
    for (const [memberIndex, ref] of (entry.members ?? []).entries()) {
      const member = byRef.get(ref);
      const memberPath = `${path}.members[${memberIndex}]`;
      if (!member)
        throw new ValidationError(`${memberPath} names a ref no record of this call has: ${ref}`, {
          context: { [memberPath]: [ref] },
        });
      if (member.type.id !== type.id)
        throw new ValidationError(
          `${memberPath} is ${ref}, a ${singularWords(member.type)} record: the list holds ${type.id} records`,
          { context: { [memberPath]: [ref] } },
        );
      members.push(member);
    }
    checked.push({ entry, path, objectTypeId: type.id, members });
  }
  return checked;
}

/** A list the call created: what removing it again needs. */
interface CreatedList {
  listId: string;
  objectTypeId: string;
  processingType: string;
  name: string;
}

/** Lists whose members are added side by side (their items share no key). */
const memberListConcurrency = 4;

/**
 * Adds each list's members through the lists API's add (change-memberships.ts changeMemberships:
 * which ids are members and which records exist read once, then transactions of memberships with
 * the list's size), one list a step, a few lists side by side. A member the add finds missing is a
 * record of the call removed meanwhile.
 */
async function addMembersAll(
  hubId: number,
  lists: readonly { checked: CheckedList; listId: string }[],
  ids: ReadonlyMap<string, string>,
  clock: WriteClock,
): Promise<void> {
  const withMembers = lists.filter(({ checked }) => checked.members.length > 0);
  // After a failure no list starts, and the ones under way finish before the call removes its lists.
  const failures: unknown[] = [];
  await mapConcurrently(withMembers, memberListConcurrency, async ({ checked, listId }) => {
    if (failures.length > 0) return;
    try {
      const add = checked.members.map((member) => ids.get(member.entry.ref) ?? '');
      const answer = await clock.step('members', () =>
        atPath(checked.path, () => changeMemberships(hubId, listId, { add, remove: [] })),
      );
      if (answer.recordIdsMissing.length > 0) throw notLoaded('a record of the call was removed meanwhile');
    } catch (error) {
      failures.push(error);
    }
  });
  if (failures.length > 0) throw failures[0];
}

/** The lists the call created, removed for good again with their members, a few at a time. */
async function removeCreatedLists(hubId: number, created: readonly CreatedList[]): Promise<void> {
  // Read for their filters: a DYNAMIC list's removal takes it off the lists its IN_LIST filters name.
  const stored = new Map(
    (
      await findLists(
        hubId,
        created.map((list) => list.listId),
      )
    ).map((list) => [list.listId, list]),
  );
  await mapConcurrently(created, memberListConcurrency, (list) =>
    removeListForGood(
      hubId,
      list,
      listNameDigest(list.name),
      dynamicRemovalOf(hubId, { ...list, filterTree: stored.get(list.listId)?.filterTree }),
    ),
  );
}

function firstError(outcomes: readonly CreateOutcome[]): AppError | undefined {
  const refused = outcomes.find((outcome) => 'error' in outcome);
  return refused && 'error' in refused ? new RefusedInputError(refused.error) : undefined;
}

/**
 * Loads records, associations and lists into a test account, all or nothing: every record,
 * association and list is checked as the API would check it (the first refused one answers what the
 * API would, 400 or 409; a list's refusal names its fields under `lists[<index>]`) before anything is
 * written; then the lists are created through the lists API's create (whose own checks answer
 * before any other write), the records go in as the batch create writes them, without a second
 * check (webhooks fire as for API writes), the associations through the v4 create's pair changes,
 * and the lists' members through the lists API's membership add. A write that still fails (a
 * unique value taken by a concurrent request meanwhile) removes what the call had created and
 * answers that write's status and error. The writes go step by step (a list, a batch of records,
 * one record's pairs, one list's members) and stop while the time left still holds removing what
 * they wrote (WriteClock): a load that does not fit in the function's time removes its lists and
 * records and answers 503 with Retry-After before the timeout. Answers each ref's record id and
 * each list ref's list id.
 */
export async function loadFixtures(
  developer: Developer,
  hubIdText: string,
  input: FixturesInput,
  deadlineMs: number,
): Promise<{ ids: Record<string, string>; listIds: Record<string, string> }> {
  const link = await requireTestAccount(developer, hubIdText);
  const entries = input.records ?? [];
  const associations = input.associations ?? [];
  const lists = input.lists ?? [];
  if (entries.length > maxFixtureRecords)
    throw new ValidationError(`A fixtures call loads at most ${maxFixtureRecords} records`, {
      context: { records: [String(entries.length)] },
    });
  if (associations.length > maxFixtureAssociations)
    throw new ValidationError(`A fixtures call loads at most ${maxFixtureAssociations} associations`, {
      context: { associations: [String(associations.length)] },
    });
  if (lists.length > maxFixtureLists)
    throw new ValidationError(`A fixtures call creates at most ${maxFixtureLists} lists`, {
      context: { lists: [String(lists.length)] },
    });
  let memberCount = 0;
  for (const [index, list] of lists.entries()) {
    memberCount += list.members?.length ?? 0;
    if (memberCount > maxFixtureMembers)
      throw new ValidationError(
        `A fixtures call adds at most ${maxFixtureMembers} list members (every list's members together): lists[${index}] passes it`,
        { context: { [`lists[${index}].members`]: [String(memberCount)] } },
      );
  }
  const owner = await ownerOfTestAccount(link.hubId);
  const actor: Actor = { hubId: link.hubId, appId: 0, userId: owner?.userId ?? 0 };
  const tokens = [
    ...entries.map((entry) => entry.objectType),
    ...lists.flatMap((list) => (list.objectType === undefined ? [] : [list.objectType])),
  ];
  return withAccountTypes(link.hubId, customTypeTokens(tokens), async () => {
    const prepared = await prepareAll(actor, entries);
    const byRef = new Map(prepared.map((entry) => [entry.entry.ref, entry]));
    // Associations: both refs loaded by this call, two records, and each type one the API takes for the
    // pair (resolved as the v4 create resolves them: once per pair and spec, as the holder holds it).
    const counts = new Map<string, number>();
    for (const { from, to } of associations) for (const ref of [from, to]) counts.set(ref, (counts.get(ref) ?? 0) + 1);
    const resolvers = new Map<string, ReturnType<typeof specResolver>>();
    const checked: CheckedAssociation[] = [];
    for (const [index, association] of associations.entries()) {
      const from = byRef.get(association.from);
      const to = byRef.get(association.to);
      if (!from || !to) {
        const field = from ? 'to' : 'from';
        throw new ValidationError(
          `Association ${index} names a ref no record of this call has: ${association[field]}`,
          {
            context: { [`associations[${index}].${field}`]: [association[field]] },
          },
        );
      }
      if (association.from === association.to)
        throw new ValidationError(`Association ${index} associates ${association.from} with itself`, {
          context: { [`associations[${index}].to`]: [association.to] },
        });
      const isForward = (counts.get(association.from) ?? 0) >= (counts.get(association.to) ?? 0);
      const pair: Pair = { from: from.type, to: to.type, holder: isForward ? from.type : to.type, isForward };
      const resolverKey = `${from.type.id}/${to.type.id}/${isForward}`;
      const resolve = resolvers.get(resolverKey) ?? specResolver(link.hubId, pair);
      resolvers.set(resolverKey, resolve);
      const types: ResolvedType[] = [];
      for (const spec of association.types) types.push(await resolve(spec));
      checked.push({
        holder: isForward ? from : to,
        other: isForward ? to : from,
        add: withImplied(types.map((type) => type.holderSide)),
      });
    }
    const checkedLists = await checkLists(link.hubId, lists, byRef);
    const clock = new WriteClock(deadlineMs, checkedLists.length > 0 ? 'lists' : 'records');
    const ids = new Map<string, string>();
    const created: { type: ObjectType; id: string }[] = [];
    const createdLists: { checked: CheckedList; listId: string }[] = [];
    try {
      // The lists first: their create's own checks (processingType, filterBranch, a name the account
      // holds) answer before any record is written.
      for (const checked of checkedLists) {
        const { entry } = checked;
        const list = await clock.step('lists', () =>
          atPath(checked.path, () =>
            createList(actor, {
              name: entry.name,
              objectTypeId: checked.objectTypeId,
              processingType: entry.processingType,
              ...(entry.filterBranch === undefined ? {} : { filterBranch: entry.filterBranch }),
            }),
          ),
        );
        createdLists.push({ checked, listId: list.listId });
      }
      clock.requireRoomForStep('records');
      for (const type of new Set(prepared.map((entry) => entry.type))) {
        const ofType = prepared.filter((entry) => entry.type === type);
        for (let start = 0; start < ofType.length; start += recordsPerBatch) {
          const chunk = ofType.slice(start, start + recordsPerBatch);
          // Written as the batch create writes, without checking them again; the batch stops its own writes by
          // the clock, and an input it left unwritten for time answers SERVICE_UNAVAILABLE.
          const outcomes = await clock.step('records', () =>
            createPreparedRecords(
              actor,
              type,
              chunk.map(({ prepared: record }) => record),
              Number.POSITIVE_INFINITY,
              clock.isOutOfTime,
            ).catch((error: unknown) => {
              throw error instanceof ServiceUnavailableError && clock.isOutOfTime() ? notLoaded(outOfTime) : error;
            }),
          );
          for (const outcome of outcomes) if ('record' in outcome) created.push({ type, id: outcome.record.id });
          if (outcomes.some((outcome) => 'error' in outcome && outcome.error instanceof ServiceUnavailableError))
            throw notLoaded(outOfTime);
          const refused = firstError(outcomes);
          if (refused) throw refused;
          outcomes.forEach((outcome, index) => {
            const ref = chunk[index]?.entry.ref;
            if (ref !== undefined && 'record' in outcome) ids.set(ref, outcome.record.id);
          });
        }
      }
      await associateAll(actor, checked, ids, clock);
      await addMembersAll(link.hubId, createdLists, ids, clock);
    } catch (error) {
      await removeCreatedLists(
        link.hubId,
        createdLists.map(({ checked, listId }) => ({
          listId,
          objectTypeId: checked.objectTypeId,
          processingType: checked.entry.processingType,
          name: checked.entry.name,
        })),
      );
      await removeCreated(link.hubId, created);
      throw error;
    }
    const listIds = createdLists.flatMap(({ checked, listId }) =>
      checked.entry.ref === undefined ? [] : [[checked.entry.ref, listId] as const],
    );
    return { ids: Object.fromEntries(ids), listIds: Object.fromEntries(listIds) };
  });
}
