import { batchErrorOf, envelope, type BatchError, type BatchResponse } from '../base/batch-results';
import { nowMs } from '../base/clock';
import { isNumericId } from '../records/record-id';
import type { Actor } from '../records/record-values';
import * as recordsDb from '../db/records';
import { withListWrites } from '../lists/dynamic-lists';
import { NotFoundError, ServiceUnavailableError, ValidationError } from '../base/errors';
import { batchErrorBody } from '../base/error-body';
import type { RecordWrite } from '../db/records';
import { addedEdges } from '../records/save-record';
import { orderFormsOfRecord, searchFormsOf } from '../records/search-forms';
import { mapConcurrently } from '../base/map-concurrently';
import { resolveTypeBetween } from '../association-types/association-labels';
import {
  defaultTypeBetween,
  type AssociationCategory,
  type AssociationType,
} from '../association-types/association-types';
import {
  customTypeFinder,
  InvalidAssociationTargetsError,
  LinkedRecordFullError,
  invalidAssociationTargets,
} from '../records/association-entries';
import { rulesOf } from '../records/type-rules-lookup';
import { associationLimitsReader, type AssociationLimitsReader } from '../association-limits/association-limit-set';
import {
  changePairs,
  holderPage,
  holderSideType,
  invalidFrom,
  edgePageFound,
  inFlightReserveMs,
  maxStoredPairsPerWrite,
  findRecordsById,
  planPairs,
  requireIds,
  requirePair,
  typeCatalog,
  typeViews,
  wireId,
  withImplied,
  type AssociationSpecInput,
  type AssociationTypeView,
  type CustomTypeFinder,
  type FoundPage,
  type LabelsBetweenPair,
  type Pair,
  type PairChange,
  type PairChangesPlan,
  type WireId,
} from './record-associations';

/**
 * HubSpot's limits: reads take 1,000 inputs, writes 2,000 (pairs, for archive). The read limit:
 * https://developers.hubspot.com/changelog/bug-fix-batch-read-limit-for-hubspot-associations-api
 */
export const batchAssociationLimits = { read: 1000, write: 2000 } as const;
/** Associated records per input of a batch read page; `paging.next.after` goes back in with the same id. */
export const batchReadPageSize = 500;
/** Holders written at once, and reverse-lookup Queries run at once. */
const writeConcurrency = 8;
const readConcurrency = 16;

/** The two records an input of a pair batch names. */
export interface PairEnds {
  from: { id: string };
  to: { id: string };
}

export interface PairInput extends PairEnds {
  types?: readonly AssociationSpecInput[];
}

function requireInputCount(count: number, max: number): void {
  if (count > max)
    throw new ValidationError(`A batch takes at most ${max} inputs; this one has ${count}`, {
      context: { inputs: [String(count)] },
    });
}

/** A type an input names: as sent (for the direction `pair.from -> pair.to`) and as its holder holds it. */
export interface ResolvedType {
  sent: AssociationType;
  holderSide: AssociationType;
}

/**
 * Resolves what an input names (a v4 spec, a v3 type name or id) to its types, once per distinct
 * `keyOf` per request, so a custom type is read once however many inputs name it.
 */
export function typeResolver<T>(
  hubId: number,
  pair: Pair,
  keyOf: (token: T) => string,
  sentOf: (token: T) => Promise<AssociationType>,
): (token: T) => Promise<ResolvedType> {
  const cache = new Map<string, Promise<ResolvedType>>();
  return (token) => {
    const key = keyOf(token);
    let resolved = cache.get(key);
    if (!resolved) {
      resolved = sentOf(token).then(async (sent) => ({ sent, holderSide: await holderSideType(hubId, pair, sent) }));
      cache.set(key, resolved);
    }
    return resolved;
  };
}

/** How a batch reads the types of its inputs, once it knows the path's pair. */
export type InputTypesOf<I> = (pair: Pair) => (input: I) => Promise<ResolvedType[]>;

/** v4: the type a spec (a type id and category) names for the pair, resolved once per distinct spec. */
export const specResolver = (hubId: number, pair: Pair): ((spec: AssociationSpecInput) => Promise<ResolvedType>) =>
  typeResolver(
    hubId,
    pair,
    (spec: AssociationSpecInput) => `${spec.associationTypeId}/${spec.associationCategory ?? ''}`,
    (spec) => resolveTypeBetween(hubId, pair.from, pair.to, spec.associationTypeId, spec.associationCategory),
  );

/** v4: each input's `types`, specs of a type id (and category). */
const specTypesOf =
  (hubId: number): InputTypesOf<PairInput> =>
  (pair) => {
    const resolve = specResolver(hubId, pair);
    return (input) => Promise.all((input.types ?? []).map(resolve));
  };

/** Each input's types; an input with a type that does not fit the pair gets its error instead. */
function resolveInputTypes<I>(
  typesOf: (input: I) => Promise<ResolvedType[]>,
  inputs: readonly I[],
  errors: Map<number, BatchError>,
): Promise<ResolvedType[][]> {
  return Promise.all(
    inputs.map(async (input, index) => {
      try {
        return await typesOf(input);
      } catch (error) {
        errors.set(index, batchErrorOf(error));
        return [];
      }
    }),
  );
}

/** A change for one input, ready to be applied to its holder. */
interface PlannedChange {
  index: number;
  holderId: string;
  change: PairChange;
}

/** The error of an input whose holder (the path's first object, or its target) is missing or archived: 400 naming it, either end. */
function missingHolderError(pair: Pair, input: PairEnds): BatchError {
  return batchErrorOf(
    pair.isForward ? invalidFrom(pair)(input.from.id) : invalidAssociationTargets([{ type: pair.to, id: input.to.id }]),
  );
}

/**
 * The work of a batch call stops being started after this long, so the call answers with what it
 * did (well inside the 10 s function timeout) instead of timing out after doing it all (without it,
 * 2,000 pairs take 15-20 s on DynamoDB Local and answer 503 although everything is written).
 * 5 s since pairs with stored records also update the other record in each transaction: on a
 * loaded 2-core machine the transactions in flight at 6 s took up to 2.4 s more (answers at 8.4 s).
 */
export const batchWriteBudgetMs = 5000;

/**
 * How long a batch write may start work: batchWriteBudgetMs from its first write unless given (a
 * test passes a smaller one), and never later than inFlightReserveMs before `functionDeadlineMs`,
 * the function's timeout (HttpRequest.deadlineMs), however long reading and planning took.
 */
export interface WriteBudget {
  budgetMs?: number;
  functionDeadlineMs?: number;
}

/** Rounds of writing many holders per transaction before the rest go one by one. */
const maxWaves = 3;

/** One holder's changes written together: a holder with more stored pairs than one transaction holds has several, in order. */
interface HolderChunk {
  holderId: string;
  entries: PlannedChange[];
}

function chunksByHolder(planned: readonly PlannedChange[]): HolderChunk[][] {
  const byHolder = new Map<string, PlannedChange[]>();
  for (const entry of planned) byHolder.set(entry.holderId, [...(byHolder.get(entry.holderId) ?? []), entry]);
  return [...byHolder.entries()].map(([holderId, entries]) => {
    const chunks: HolderChunk[] = [];
    let current: HolderChunk | undefined;
    let storedPairs = 0;
    for (const entry of entries) {
      const isStoredPair = entry.change.other.isStored;
      if (!current || (isStoredPair && storedPairs >= maxStoredPairsPerWrite)) {
        current = { holderId, entries: [] };
        chunks.push(current);
        storedPairs = 0;
      }
      current.entries.push(entry);
      if (isStoredPair) storedPairs += 1;
    }
    return chunks;
  });
}

/** What applyChanges reports: errors by input index, and the inputs it did not get to before the budget ran out. */
interface AppliedChanges {
  errors: Map<number, BatchError>;
  notDone: number[];
}

/**
 * Applies planned changes. First the holders with one chunk are read together (one BatchGetItem
 * per 100) and written together, many holders per transaction (saveRecordsGrouped): 2,000 pairs
 * of 2,000 holders take about 20 reads and 60 transactions instead of 2,000 of each; up to
 * maxWaves rounds of that, for holders that share an item with another. Whatever that could not
 * write (a holder changed meanwhile, a stored target full or missing, a holder with many changes)
 * goes one holder chunk at a time: one read and one transaction, retried on a stale read. An input
 * whose holder or stored target is missing, or that would pass the association limits, gets an
 * error; the other inputs of its holder are written without it. Work not started within
 * batchWriteBudgetMs is reported in `notDone`, never half-written: each holder is written
 * all or nothing.
 */
async function applyChanges(
  actor: Actor,
  pair: Pair,
  inputs: readonly PairEnds[],
  planned: readonly PlannedChange[],
  findType: CustomTypeFinder,
  budget: WriteBudget,
  limits: AssociationLimitsReader = associationLimitsReader(actor.hubId),
): Promise<AppliedChanges> {
  const deadline = Math.min(
    performance.now() + (budget.budgetMs ?? batchWriteBudgetMs),
    (budget.functionDeadlineMs ?? Number.POSITIVE_INFINITY) - inFlightReserveMs,
  );
  const errors = new Map<number, BatchError>();
  const notDone: number[] = [];
  const holders = chunksByHolder(planned);
  const single = holders.filter((chunks) => chunks.length === 1).map((chunks) => chunks[0] as HolderChunk);
  const isTimeUp = () => performance.now() > deadline;
  // Holders that share an item (a pair's two stored ends) cannot be in one transaction: the later
  // one waits for the next wave, which reads it again after the first wrote.
  let waiting = single;
  for (let wave = 0; wave < maxWaves && waiting.length > 0 && !isTimeUp(); wave += 1) {
    const before = waiting.length;
    waiting = await writeTogether(actor, pair, inputs, waiting, findType, limits, errors, isTimeUp);
    if (waiting.length === before) break;
  }
  const leftOver = [...waiting, ...holders.filter((chunks) => chunks.length > 1).flat()];
  const byHolder = new Map<string, HolderChunk[]>();
  for (const chunk of leftOver) byHolder.set(chunk.holderId, [...(byHolder.get(chunk.holderId) ?? []), chunk]);
  await mapConcurrently([...byHolder.values()], writeConcurrency, async (chunks) => {
    for (const chunk of chunks) {
      if (isTimeUp()) {
        notDone.push(...chunk.entries.map((entry) => entry.index));
        continue;
      }
      await writeOneByOne(actor, pair, inputs, chunk, findType, limits, errors, isTimeUp, notDone);
    }
  });
  return { errors, notDone: notDone.sort((a, b) => a - b) };
}

/** The fast path of applyChanges: returns the chunks it did not write. */
async function writeTogether(
  actor: Actor,
  pair: Pair,
  inputs: readonly PairEnds[],
  chunks: readonly HolderChunk[],
  findType: CustomTypeFinder,
  limits: AssociationLimitsReader,
  errors: Map<number, BatchError>,
  isTimeUp: () => boolean,
): Promise<HolderChunk[]> {
  const records = await findRecordsById(
    pair.holder,
    actor.hubId,
    chunks.map((chunk) => chunk.holderId),
  );
  const planned: { chunk: HolderChunk; plan: PairChangesPlan; write: RecordWrite }[] = [];
  // A chunk one of whose other records refuses it as a whole (a line item that has its deal) is left to writeOneByOne, which drops that input.
  const refused: HolderChunk[] = [];
  for (const chunk of chunks) {
    const record = records.get(chunk.holderId);
    if (!record) {
      for (const entry of chunk.entries)
        errors.set(entry.index, missingHolderError(pair, inputs[entry.index] as PairEnds));
      continue;
    }
    let plan: PairChangesPlan;
    try {
      plan = await planPairs(
        actor,
        pair.holder,
        record,
        chunk.entries.map((entry) => entry.change),
        findType,
        limits,
      );
    } catch (error) {
      if (!(error instanceof LinkedRecordFullError)) throw error;
      refused.push(chunk);
      continue;
    }
    if (!plan.write) {
      setRejected(chunk, plan, errors);
      continue;
    }
    planned.push({
      chunk,
      plan,
      write: {
        ...plan.write,
        linksToSelf: rulesOf(pair.holder).linksToSelf,
        previousAssociations: record.associations,
        previousOrder: orderFormsOfRecord(pair.holder, record),
        previousForms: searchFormsOf(pair.holder, record),
        edges: addedEdges(record.associations, plan.write.record.associations),
      },
    });
  }
  const notWritten = await recordsDb.saveRecordsGrouped(
    pair.holder,
    actor.hubId,
    await withListWrites(
      pair.holder,
      actor.hubId,
      planned.map(({ write }) => ({ write, searchForms: searchFormsOf(pair.holder, write.record) })),
    ),
    writeConcurrency,
    isTimeUp,
  );
  planned.forEach(({ chunk, plan }, index) => {
    if (!notWritten.has(index)) setRejected(chunk, plan, errors);
  });
  return [...planned.filter((_, index) => notWritten.has(index)).map(({ chunk }) => chunk), ...refused];
}

function setRejected(chunk: HolderChunk, plan: PairChangesPlan, errors: Map<number, BatchError>): void {
  for (const [position, error] of plan.rejected)
    errors.set((chunk.entries[position] as PlannedChange).index, batchErrorOf(error));
}

/**
 * One holder chunk: one read and one transaction (retried on a stale read). A full stored target
 * drops its inputs and tries the rest; a missing one makes every stored target of the chunk be
 * checked at once (keys only, one BatchGetItem per 100), and each missing one's inputs dropped, so
 * a chunk with many missing targets costs a few calls, not a transaction each. Inputs left when
 * the time is up are reported in `notDone`.
 */
async function writeOneByOne(
  actor: Actor,
  pair: Pair,
  inputs: readonly PairEnds[],
  chunk: HolderChunk,
  findType: CustomTypeFinder,
  limits: AssociationLimitsReader,
  errors: Map<number, BatchError>,
  isTimeUp: () => boolean,
  notDone: number[],
): Promise<void> {
  let pending = chunk.entries;
  // Each round either writes or drops the inputs of at least one stored target, so it ends.
  while (pending.length > 0) {
    if (isTimeUp()) {
      notDone.push(...pending.map((entry) => entry.index));
      return;
    }
    try {
      const outcome = await changePairs(
        actor,
        pair.holder,
        chunk.holderId,
        pending.map((entry) => entry.change),
        findType,
        limits,
      );
      if (!outcome.record) {
        for (const entry of pending) errors.set(entry.index, missingHolderError(pair, inputs[entry.index] as PairEnds));
      }
      for (const [position, error] of outcome.rejected)
        errors.set((pending[position] as PlannedChange).index, batchErrorOf(error));
      return;
    } catch (error) {
      const target =
        error instanceof LinkedRecordFullError
          ? error.id
          : error instanceof InvalidAssociationTargetsError
            ? error.ids[0]
            : undefined;
      const missing =
        error instanceof InvalidAssociationTargetsError ? await withMissingTargets(actor.hubId, pending) : [];
      const dropped =
        missing.length > 0
          ? missing
          : pending.filter((entry) => entry.change.other.isStored && entry.change.otherId === target);
      if (dropped.length === 0) throw error;
      for (const entry of dropped)
        errors.set(
          entry.index,
          batchErrorOf(
            error instanceof InvalidAssociationTargetsError
              ? invalidAssociationTargets([{ type: entry.change.other, id: entry.change.otherId }])
              : error,
          ),
        );
      pending = pending.filter((entry) => !dropped.includes(entry));
    }
  }
}

/** The changes whose stored target does not exist (any more): one BatchGetItem of keys per 100 targets. */
async function withMissingTargets(hubId: number, changes: readonly PlannedChange[]): Promise<PlannedChange[]> {
  const stored = changes.filter((entry) => entry.change.other.isStored);
  const found = await recordsDb.findExistingRecords(
    hubId,
    stored.map((entry) => ({ type: entry.change.other, id: entry.change.otherId })),
  );
  return stored.filter((entry) => !found.has(`${entry.change.other.id}/${entry.change.otherId}`));
}

/** Inputs the budget left unwritten: each an error saying so, to send again (every batch route is idempotent). */
function notDoneErrors(notDone: readonly number[]): Map<number, BatchError> {
  return new Map(
    notDone.map((index) => [
      index,
      batchErrorBody(
        new ServiceUnavailableError(
          `inputs[${index}] was not written: the batch ran out of time before it (the inputs without an error are written); send it again`,
          { context: { input: [String(index)] } },
        ),
      ),
    ]),
  );
}

/** A write route without a body (archive): work left undone is a 503, and sending the batch again finishes it. */
function requireAllDone(notDone: readonly number[]): void {
  if (notDone.length === 0) return;
  throw new ServiceUnavailableError(
    `${notDone.length} inputs were not processed in time (the others are); send the batch again: removing is idempotent`,
    { context: { input: notDone.slice(0, 100).map(String) } },
  );
}

/** Ids an input names: numeric, and not the same record on both sides. */
function planned(
  pair: Pair,
  inputs: readonly PairEnds[],
  errors: Map<number, BatchError>,
  next: (input: PairEnds, index: number) => PairChange['next'] | undefined,
): PlannedChange[] {
  return inputs.flatMap((input, index) => {
    if (errors.has(index)) return [];
    try {
      const { holderId, other, otherId } = requireIds(pair, input.from.id, input.to.id, invalidFrom(pair));
      const changeNext = next(input, index);
      return changeNext ? [{ index, holderId, change: { other, otherId, next: changeNext } }] : [];
    } catch (error) {
      errors.set(index, batchErrorOf(error));
      return [];
    }
  });
}

/** A v4 create's result: the pair and the labels of the sent types (none for unlabeled types). */
function labelsBetweenPair(pair: Pair, input: PairEnds, types: readonly ResolvedType[]): LabelsBetweenPair {
  const labels = types.map((entry) => entry.sent.label).filter((label): label is string => label !== null);
  return {
    fromObjectTypeId: pair.from.id,
    fromObjectId: wireId(input.from.id),
    toObjectTypeId: pair.to.id,
    toObjectId: wireId(input.to.id),
    labels: [...new Set(labels)],
  };
}

/** Batch errors in the order of their inputs. */
function inInputOrder(errors: ReadonlyMap<number, BatchError>): BatchError[] {
  return [...errors.entries()].sort((a, b) => a[0] - b[0]).map(([, error]) => error);
}

/**
 * Adds each input's types to its pair, keeping the types the pair holds (a primary type also adds
 * its unlabeled one), and answers the batch envelope: a result per written input (`resultOf`), an
 * error per refused one (types that do not fit the pair, a missing record, the association
 * limits). The v4 and v3 batch creates differ only in what an input names (`typesOf`) and how a
 * result reads.
 */
export async function addPairTypes<I extends PairEnds, R>(
  actor: Actor,
  fromToken: string,
  toToken: string,
  inputs: readonly I[],
  typesOf: InputTypesOf<I>,
  resultOf: (pair: Pair, input: I, types: readonly ResolvedType[]) => R,
  budget: WriteBudget,
): Promise<BatchResponse<R>> {
  const startedAt = new Date(nowMs()).toISOString();
  requireInputCount(inputs.length, batchAssociationLimits.write);
  const pair = requirePair(fromToken, toToken);
  const errors = new Map<number, BatchError>();
  const types = await resolveInputTypes(typesOf(pair), inputs, errors);
  const plan = planned(pair, inputs, errors, (_input, index) => {
    const add = withImplied((types[index] ?? []).map((entry) => entry.holderSide));
    return (current) => ({ keep: current, add });
  });
  const applied = await applyChanges(actor, pair, inputs, plan, customTypeFinder(actor.hubId), budget);
  for (const [index, error] of [...applied.errors, ...notDoneErrors(applied.notDone)]) errors.set(index, error);
  const results = inputs.flatMap((input, index) =>
    errors.has(index) ? [] : [resultOf(pair, input, types[index] ?? [])],
  );
  return envelope(startedAt, results, inInputOrder(errors));
}

/**
 * POST /crm/v4/associations/{from}/{to}/batch/create: adds the sent types to each pair (a label
 * the pair holds and the input does not name stays; the single PUT replaces instead). 201 when
 * every input was written, 207 with per-input errors otherwise.
 */
export function batchCreateAssociations(
  actor: Actor,
  fromToken: string,
  toToken: string,
  inputs: readonly PairInput[],
  budget: WriteBudget = {},
): Promise<BatchResponse<LabelsBetweenPair>> {
  return addPairTypes(actor, fromToken, toToken, inputs, specTypesOf(actor.hubId), labelsBetweenPair, budget);
}

export interface DefaultAssociation {
  from: { id: string };
  to: { id: string };
  associationSpec: { associationCategory: AssociationCategory; associationTypeId: number };
}

/** POST …/batch/associate/default: adds the pair's unlabeled type, keeping labels; 200 with both directions per input. */
export async function batchAssociateDefault(
  actor: Actor,
  fromToken: string,
  toToken: string,
  inputs: readonly PairInput[],
  budget: WriteBudget = {},
): Promise<BatchResponse<DefaultAssociation>> {
  const startedAt = new Date(nowMs()).toISOString();
  requireInputCount(inputs.length, batchAssociationLimits.write);
  const pair = requirePair(fromToken, toToken);
  const forward = defaultTypeBetween(pair.from, pair.to);
  const backward = defaultTypeBetween(pair.to, pair.from);
  const holderSide = pair.isForward ? forward : backward;
  if (!forward || !backward || !holderSide) {
    throw new ValidationError(`No default association type between ${pair.from.name} and ${pair.to.name}`, {
      context: { toObjectType: [toToken] },
    });
  }
  const errors = new Map<number, BatchError>();
  const plan = planned(pair, inputs, errors, () => (current) => ({ keep: current, add: [holderSide] }));
  const applied = await applyChanges(actor, pair, inputs, plan, customTypeFinder(actor.hubId), budget);
  for (const [index, error] of [...applied.errors, ...notDoneErrors(applied.notDone)]) errors.set(index, error);
  const spec = (type: AssociationType) => ({ associationCategory: type.category, associationTypeId: type.typeId });
  const results = inputs.flatMap((input, index) =>
    errors.has(index)
      ? []
      : [
          { from: { id: input.from.id }, to: { id: input.to.id }, associationSpec: spec(forward) },
          { from: { id: input.to.id }, to: { id: input.from.id }, associationSpec: spec(backward) },
        ],
  );
  return envelope(startedAt, results, inInputOrder(errors));
}

/** A write whose inputs were all refused before anything was written: the first refusal, naming its input. */
function refuseBeforeWriting(errors: ReadonlyMap<number, BatchError>): void {
  const first = [...errors.entries()].sort((a, b) => a[0] - b[0])[0];
  if (!first) return;
  const [index, error] = first;
  throw new ValidationError(`inputs[${index}]: ${error.message}`, {
    context: { ...error.context, input: [String(index)] },
    ...(error.subCategory ? { subCategory: error.subCategory } : {}),
  });
}

/** Missing records on either side have nothing to remove: their inputs are done, not errors. */
function onlyWriteErrors(errors: ReadonlyMap<number, BatchError>, missing: (error: BatchError) => boolean): void {
  const real = new Map([...errors].filter(([, error]) => !missing(error)));
  if (real.size > 0) refuseBeforeWriting(real);
}

const isMissingRecord = (error: BatchError) =>
  error.category === 'OBJECT_NOT_FOUND' || error.context.INVALID_OBJECT_IDS !== undefined;

export interface ArchiveInput {
  from: { id: string };
  to: readonly { id: string }[];
}

/**
 * POST …/batch/archive: removes every type between each pair (204 whether or not there was one).
 * Ids are checked before anything is written; a bad one is a 400 naming its input.
 */
export async function batchArchiveAssociations(
  actor: Actor,
  fromToken: string,
  toToken: string,
  inputs: readonly ArchiveInput[],
  budget: WriteBudget = {},
): Promise<void> {
  const pairs: PairEnds[] = inputs.flatMap((input) => input.to.map((to) => ({ from: input.from, to })));
  requireInputCount(pairs.length, batchAssociationLimits.write);
  const pair = requirePair(fromToken, toToken);
  const errors = new Map<number, BatchError>();
  const plan = planned(pair, pairs, errors, () => () => ({ keep: [], add: [] }));
  refuseBeforeWriting(errors);
  const applied = await applyChanges(actor, pair, pairs, plan, customTypeFinder(actor.hubId), budget);
  onlyWriteErrors(applied.errors, isMissingRecord);
  requireAllDone(applied.notDone);
}

/**
 * Removes each input's types from its pair; an input naming the pair's unlabeled type removes
 * every type of the pair (HubSpot: "Deleting an unlabeled association will also delete all labeled
 * associations"). Types and ids are checked before anything is written: a bad one is a 400 naming
 * its input. Missing records have nothing to remove.
 */
export async function removePairTypes<I extends PairEnds>(
  actor: Actor,
  fromToken: string,
  toToken: string,
  inputs: readonly I[],
  typesOf: InputTypesOf<I>,
  budget: WriteBudget = {},
): Promise<void> {
  requireInputCount(inputs.length, batchAssociationLimits.write);
  const pair = requirePair(fromToken, toToken);
  const errors = new Map<number, BatchError>();
  const resolved = await resolveInputTypes(typesOf(pair), inputs, errors);
  const unlabeled = defaultTypeBetween(pair.from, pair.to)?.typeId;
  const plan = planned(pair, inputs, errors, (_input, index) => {
    const types = resolved[index] ?? [];
    if (types.some((entry) => entry.sent.typeId === unlabeled)) return () => ({ keep: [], add: [] });
    const removed = new Set(types.map((entry) => entry.holderSide.typeId));
    return (current) => ({ keep: current.filter((typeId) => !removed.has(typeId)), add: [] });
  });
  refuseBeforeWriting(errors);
  const applied = await applyChanges(actor, pair, inputs, plan, customTypeFinder(actor.hubId), budget);
  onlyWriteErrors(applied.errors, isMissingRecord);
  requireAllDone(applied.notDone);
}

/** POST …/batch/labels/archive: removes the sent types from each pair (removePairTypes). */
export function batchArchiveAssociationLabels(
  actor: Actor,
  fromToken: string,
  toToken: string,
  inputs: readonly PairInput[],
  budget: WriteBudget = {},
): Promise<void> {
  return removePairTypes(actor, fromToken, toToken, inputs, specTypesOf(actor.hubId), budget);
}

export interface AssociationsOfRecord {
  from: { id: string };
  to: { toObjectId: WireId; associationTypes: AssociationTypeView[] }[];
  paging?: { next: { after: string; link?: string } };
}

export interface ReadInput {
  id: string;
  after?: string;
}

function noAssociationsFound(pair: Pair, id: string): BatchError {
  return batchErrorOf(
    new NotFoundError(`No ${pair.to.singular} is associated with ${pair.from.singular} ${id}.`, {
      subCategory: 'crm.associations.NO_ASSOCIATIONS_FOUND',
      context: { fromObjectId: [id], fromObjectType: [pair.from.singular], toObjectType: [pair.to.singular] },
    }),
  );
}

/**
 * POST …/batch/read: the associated records of each input, up to 500 per input (page on with the
 * returned `after` and the same id). An input with none (or a record that does not exist) goes to
 * `errors` with NO_ASSOCIATIONS_FOUND, and the answer is then 207. From a stored type: one
 * BatchGetItem per 100 inputs. From a type not stored: one Query of reverse-lookup items per
 * input, then one BatchGetItem per 100 records they name. Plus at most two Queries for custom labels.
 */
export async function batchReadAssociations(
  hubId: number,
  fromToken: string,
  toToken: string,
  inputs: readonly ReadInput[],
): Promise<BatchResponse<AssociationsOfRecord>> {
  const startedAt = new Date(nowMs()).toISOString();
  requireInputCount(inputs.length, batchAssociationLimits.read);
  const pair = requirePair(fromToken, toToken);
  const unique = [...new Map(inputs.map((input) => [`${input.id}/${input.after ?? ''}`, input])).values()];
  for (const [index, input] of unique.entries()) {
    if (input.after !== undefined && !isNumericId(input.after)) {
      throw new ValidationError(`inputs[${index}]: after is not a paging cursor this API returned`, {
        context: { after: [input.after], input: [String(index)] },
      });
    }
  }
  const readable = unique.filter((input) => isNumericId(input.id));
  const pages = new Map<ReadInput, { page: FoundPage; last: string | undefined }>();
  if (pair.isForward) {
    const records = await findRecordsById(
      pair.from,
      hubId,
      readable.map((input) => input.id),
    );
    for (const input of readable) {
      const record = records.get(input.id);
      if (!record) continue;
      const page = holderPage(record, pair.to, batchReadPageSize, input.after);
      pages.set(input, { page, last: page.found.at(-1)?.id });
    }
  } else {
    const edgePages = await mapConcurrently(readable, readConcurrency, (input) =>
      recordsDb.listAssociationEdges(hubId, pair.holder, pair.from.id, input.id, batchReadPageSize, input.after),
    );
    const records = await findRecordsById(
      pair.holder,
      hubId,
      edgePages.flatMap((page) => page.holderIds),
    );
    readable.forEach((input, index) => {
      const edges = edgePages[index];
      if (!edges) return;
      pages.set(input, {
        page: { found: edgePageFound(edges.holderIds, records, pair.from, input.id), hasMore: edges.hasMore },
        last: edges.holderIds.at(-1),
      });
    });
  }
  const lookup = await typeCatalog(
    hubId,
    pair.from,
    pair.to,
    [...pages.values()].flatMap(({ page }) => page.found.flatMap((entry) => entry.typeIds)),
  );
  const results: AssociationsOfRecord[] = [];
  const errors: BatchError[] = [];
  for (const input of unique) {
    const read = pages.get(input);
    // A page emptied by stale reverse-lookup items still pages on when more may follow.
    if (!read || (read.page.found.length === 0 && !read.page.hasMore)) {
      errors.push(noAssociationsFound(pair, input.id));
      continue;
    }
    const to = read.page.found.map((entry) => ({
      toObjectId: wireId(entry.id),
      associationTypes: typeViews(entry.typeIds, pair, lookup),
    }));
    results.push(
      read.page.hasMore && read.last
        ? { from: { id: input.id }, to, paging: { next: { after: read.last } } }
        : { from: { id: input.id }, to },
    );
  }
  return envelope(startedAt, results, errors);
}
