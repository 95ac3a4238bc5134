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
import { requireStoredObjectType, type ObjectType } from '../objects/object-types';
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
import { ownerOfTestAccount, requireTestAccount, type Developer } from './access';

/** The records one call loads within the function's time, with room to remove them again (docs/testing-your-integration.md). */
export const maxFixtureRecords = 200;
/**
 * The associations one call loads within the function's time with room to remove them again: on a
 * loaded 2-core machine, 200 records with 2,000 associations linking them into one group of writes
 * loaded in 3.8 to 12.3 s of the 29 s and removing them took 1.7 to 8.7 s, where 4,000 and 6,000 did
 * not fit (docs/testing-your-integration.md).
 */
export const maxFixtureAssociations = 2000;
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

/** The writes of a call: the records' batches (one after another), then the associations' pair changes. */
type WritePhase = 'records' | 'pairs';

/**
 * When the writes must stop: the time left must always hold removing everything written so far
 * (estimated from each phase's time spent writing, at the measured rates above) and the answer. Before a
 * step of the writes, that must still hold once the step (as long as the longest of its phase so far)
 * is written too; within a batch of records, the batch asks before each of its writes (isOutOfTime).
 */
export class WriteClock {
  private readonly startedAt = performance.now();
  private pairsStartedAt: number | undefined;
  private readonly longestStepMs: Record<WritePhase, number> = { records: 0, pairs: 0 };
  constructor(private readonly deadlineMs: number) {}

  /** What removing the writes done by `at` would take. */
  private removalMs(at: number): number {
    const pairsStartedAt = this.pairsStartedAt ?? at;
    return (
      removalBaseMs +
      (pairsStartedAt - this.startedAt) * removalPerRecordWriteMs +
      (at - pairsStartedAt) * removalPerPairWriteMs
    );
  }

  private isPastAt(at: number): boolean {
    return at + this.removalMs(at) + answerReserveMs > this.deadlineMs;
  }

  /** Whether a write started now might leave too little time to remove everything. */
  readonly isOutOfTime = (): boolean => this.isPastAt(performance.now());

  /** Throws the 503 when the next step of the phase (and undoing it) might not fit before the deadline. */
  requireRoomForStep(phase: WritePhase): void {
    if (phase === 'pairs') this.pairsStartedAt ??= performance.now();
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

export interface FixturesInput {
  records?: readonly FixtureRecord[];
  associations?: readonly FixtureAssociation[];
}

/** A batch's refusal of one input (a race lost after the checks), answered with that refusal's status, category, message and context. */
class RefusedInputError extends AppError {
  readonly status: number;
  readonly category: string;
  constructor(error: AppError) {
    super(error.message, { context: error.context ?? {} });
    this.status = error.status;
    this.category = error.category;
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

function firstError(outcomes: readonly CreateOutcome[]): AppError | undefined {
  const refused = outcomes.find((outcome) => 'error' in outcome);
  return refused && 'error' in refused ? new RefusedInputError(refused.error) : undefined;
}

/**
 * Loads records and associations into a test account, all or nothing: every record and association
 * is checked as the API would check it (the first refused one answers what the API would, 400 or
 * 409) before anything is written; then the records go in as the batch create writes them, without
 * a second check (webhooks fire as for API writes), and the associations through the v4 create's
 * pair changes. A write that still fails (a unique value taken by a concurrent request meanwhile)
 * removes what the call had created and answers that write's status and error. The writes go step by step (a batch of records, one record's pairs) and
 * stop while the time left still holds removing what they wrote (WriteClock): a load that does not fit
 * in the function's time removes its records and answers 503 with Retry-After before the timeout.
 * Answers each ref's record id.
 */
export async function loadFixtures(
  developer: Developer,
  hubIdText: string,
  input: FixturesInput,
  deadlineMs: number,
): Promise<{ ids: Record<string, string> }> {
  const link = await requireTestAccount(developer, hubIdText);
  const entries = input.records ?? [];
  const associations = input.associations ?? [];
  if (entries.length > maxFixtureRecords)
    throw new ValidationError(`A fixtures call loads at most ${maxFixtureRecords} records`, {
      context: { records: [String(entries.length)] },
    });
  if (associations.length > maxFixtureAssociations)
    throw new ValidationError(`A fixtures call loads at most ${maxFixtureAssociations} associations`, {
      context: { associations: [String(associations.length)] },
    });
  const owner = await ownerOfTestAccount(link.hubId);
  const actor: Actor = { hubId: link.hubId, appId: 0, userId: owner?.userId ?? 0 };
  const tokens = entries.map((entry) => entry.objectType);
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
    const clock = new WriteClock(deadlineMs);
    clock.requireRoomForStep('records');
    const ids = new Map<string, string>();
    const created: { type: ObjectType; id: string }[] = [];
    try {
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
    } catch (error) {
      await removeCreated(link.hubId, created);
      throw error;
    }
    return { ids: Object.fromEntries(ids) };
  });
}
