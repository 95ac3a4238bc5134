import { associationLimitsReader } from '../association-limits/association-limit-set';
import { AssociationLimitExceededError } from '../association-limits/enforce-association-limits';
import { singularWords, type ObjectType } from '../objects/object-types';
import { mapConcurrently } from '../base/map-concurrently';
import { nowMs } from '../base/clock';
import { withListWrites } from '../lists/dynamic-lists';
import * as recordsDb from '../db/records';
import type { CrmRecord } from '../db/records';
import { findMergedRecords } from './merged-ids';
import { AppError, ConflictError, ServiceUnavailableError, ValidationError } from '../base/errors';
import { batchErrorBody, batchNotFoundError } from '../base/error-body';
import { batchErrorOf, envelope, type BatchError, type BatchResponse } from '../base/batch-results';
import { archiveRecord } from './archive-record';
import { isNumericId } from './record-id';
import { uniquePropertyOf, uniqueSourceNames, uniqueValuesOf, type Actor, type RawProperties } from './record-values';
import { defaultsAnd, parseNameList, toRecordView, type RecordView } from './record-view';
import {
  commitPreparedRecord,
  commitRecord,
  createdView,
  plannedCreate,
  prepareRecord,
  type NewRecord,
  type PreparedRecord,
} from './create-record';
import { searchFormsOf } from './search-forms';
import { rulesOf } from './type-rules-lookup';
import { newAccountLookups } from './account-values';
import { loadPropertySchema, type PropertySchema } from '../properties/type-properties';
import { lookupFor, requireIdProperty, uniqueValueOf } from './read-records';
import { commitUpdate, prepareUpdate, type PreparedUpdate } from './update-record';
import { requireAssociationTargets, type AssociationInput } from './association-entries';
import type { WriteRules } from './write-validation';

/** Prefixes a validation error with the input it came from, so a client can find it in 100 inputs. */
async function forInput<T>(index: number, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof ValidationError) {
      throw new ValidationError(`inputs[${index}]: ${error.message}`, {
        context: { ...error.context, input: [String(index)] },
        errors: error.errors,
        subCategory: error.subCategory,
        cause: error,
      });
    }
    throw error;
  }
}

export interface BatchReadInput {
  inputs: readonly { id: string }[];
  properties?: readonly string[];
  propertiesWithHistory?: readonly string[];
  idProperty?: string;
}

/** One BatchGetItem for up to 100 ids (plus retries of unprocessed keys). */
export async function batchReadRecords(
  type: ObjectType,
  hubId: number,
  input: BatchReadInput,
  isArchived = false,
): Promise<BatchResponse<RecordView>> {
  const startedAt = new Date(nowMs()).toISOString();
  const propertyName = await requireIdProperty(type, hubId, input.idProperty);
  const requested = [...new Set(input.inputs.map((entry) => entry.id))];
  const idOf = new Map<string, string>();
  if (propertyName === 'hs_object_id') {
    for (const id of requested.filter(isNumericId)) idOf.set(id, id);
  } else {
    const values = new Map(requested.map((id) => [id, uniqueValueOf(type, propertyName, id)]));
    const owners = await recordsDb.findUniqueValueOwners(
      type,
      hubId,
      propertyName,
      [...values.values()].filter((value): value is string => !!value),
    );
    for (const [id, value] of values) {
      const owner = value === undefined ? undefined : owners.get(value);
      if (owner) idOf.set(id, owner);
    }
  }
  const records = await recordsDb.findRecords(type, hubId, [...idOf.values()], isArchived);
  // Ids merged away read as the record that holds the merge's result.
  const unresolved = [...idOf.values()].filter((id) => !records.has(id));
  if (!isArchived && unresolved.length > 0) {
    const merged = await findMergedRecords(type, hubId, unresolved);
    for (const [id, record] of merged) records.set(id, record);
  }
  const found = requested.filter((id) => records.has(idOf.get(id) ?? ''));
  const missing = requested.filter((id) => !records.has(idOf.get(id) ?? ''));
  const options = {
    properties: parseNameList(input.properties),
    propertiesWithHistory: parseNameList(input.propertiesWithHistory),
  };
  const foundRecords = found.map((id) => records.get(idOf.get(id) ?? '')).filter((record) => record !== undefined);
  const lookup = await lookupFor(type, hubId, options);
  const results = [
    ...new Map(foundRecords.map((record) => [record.id, toRecordView(type, record, options, lookup)])).values(),
  ];
  return envelope(startedAt, results, missing.length > 0 ? [batchNotFoundError(missing)] : []);
}

export interface BatchCreateInput {
  inputs: readonly (NewRecord & { objectWriteTraceId?: string; associations?: readonly AssociationInput[] })[];
}

/**
 * The inputs in lanes: inputs associated with a common record share a lane. The common target's
 * item is written in each of their transactions, so running them at once would only make them
 * conflict and retry (60 inputs with one target ran past the function's time); a lane runs in order.
 */
function lanesBySharedTarget(prepared: readonly PreparedRecord[]): number[][] {
  const laneOfTarget = new Map<string, number[]>();
  const lanes: number[][] = [];
  prepared.forEach((entry, index) => {
    const targets = [
      ...new Set(
        entry.entries.filter((target) => target.to.isStored).map((target) => `${target.to.id}/${target.toObjectId}`),
      ),
    ];
    const joined = [
      ...new Set(targets.map((id) => laneOfTarget.get(id)).filter((lane): lane is number[] => lane !== undefined)),
    ];
    const lane = joined[0] ?? [];
    if (joined.length === 0) lanes.push(lane);
    // An input linking two lanes' targets merges them.
    for (const other of joined.slice(1)) {
      lane.push(...other.splice(0));
      for (const [id, owner] of laneOfTarget) if (owner === other) laneOfTarget.set(id, lane);
    }
    lane.push(index);
    for (const id of targets) laneOfTarget.set(id, lane);
  });
  return lanes.filter((lane) => lane.length > 0).map((lane) => lane.sort((a, b) => a - b));
}

/**
 * For a type whose duplicate answers the whole request (contacts: HubSpot's 409 `Contact already
 * exists. Existing ID: <id>` on a batch create or update), the batch's values of the type's unique
 * property are checked before anything is written: one read of their claims. Two inputs with the
 * same value answer 400 naming it. A value taken between this check and the writes still fails its
 * own input only (207), as for every other type.
 */
export async function requireFreeUniqueValues(
  type: ObjectType,
  hubId: number,
  entries: readonly { ownId?: string; values: readonly string[] }[],
): Promise<void> {
  const conflict = rulesOf(type).conflict;
  const propertyName = uniquePropertyOf(type);
  if (!conflict || propertyName === undefined) return;
  const seen = new Map<string, number>();
  const duplicates = new Set<string>();
  entries.forEach((entry, index) => {
    for (const value of entry.values) {
      const first = seen.get(value);
      if (first !== undefined && first !== index) duplicates.add(value);
      else seen.set(value, index);
    }
  });
  if (duplicates.size > 0) {
    throw new ValidationError(
      `Duplicate values of ${propertyName} found in batch input: [${[...duplicates].join(', ')}]. Values must be unique`,
      { context: { [propertyName]: [...duplicates] } },
    );
  }
  const owners = await recordsDb.findUniqueValueOwners(type, hubId, propertyName, [...seen.keys()]);
  for (const [value, ownerId] of owners) {
    const index = seen.get(value) ?? -1;
    if (ownerId !== entries[index]?.ownId) throw conflict({ propertyName, value }, ownerId);
  }
}

/** The values of the type's unique property (and of the list sharing its namespace) that a write sets. */
export function standardUniqueValues(
  type: ObjectType,
  values: Record<string, string>,
  schema: PropertySchema,
): string[] {
  const propertyName = uniquePropertyOf(type);
  if (propertyName === undefined) return [];
  return uniqueValuesOf(type, values, schema, uniqueSourceNames(type, propertyName, schema)).map(
    (unique) => unique.value,
  );
}

/** A batch stops starting grouped writes this long before the function's timeout. */
const batchReserveMs = 3500;
/** Grouped transactions of a batch in flight at once. */
const groupedConcurrency = 4;
/**
 * Items gathered in one grouped transaction of a batch create: half of DynamoDB's 100, so no call
 * is one that DynamoDB Local on a loaded 2-core machine takes seconds over (a 99-item transaction
 * ran past the client's 2 s socket timeout three times under a load average of 11); 100 contacts
 * (5 items each: record, projection, email claim, two ordered-index keys; and one count per
 * transaction) go in 12 transactions.
 */
const createGroupItems = 50;

/** The error of an input the batch did not write because its time was up: retrying that input can succeed. */
function notWrittenInTime(index: number): ServiceUnavailableError {
  return new ServiceUnavailableError(`inputs[${index}] was not written: too little time was left; retry it.`, {
    context: { input: [String(index)] },
  });
}

/**
 * Every input is checked before anything is written. Then the records go in as few transactions
 * as hold them (each record with its projection, unique values and linked records in one of
 * them, saveRecordsGrouped): 100 plain records take about seven transactions, not 100, so a batch
 * finishes long before the function's timeout. A batch whose checks ran so close to the timeout
 * that the writes might not finish writes nothing and answers 503 with Retry-After. The inputs a
 * grouped write could not take (a unique value taken meanwhile, a record shared by several inputs, a
 * rare id collision) are written one by one, each its own transaction, and answered for themselves.
 * No write starts once the time is up (`deadlineMs` less the batch's reserve, or `isOutOfTime`, a
 * caller's own clock such as the fixtures'): an input not written by then answers its own
 * SERVICE_UNAVAILABLE error, so the answer still names every record that was written.
 */
export async function batchCreateRecords(
  actor: Actor,
  type: ObjectType,
  input: BatchCreateInput,
  deadlineMs = Number.POSITIVE_INFINITY,
  isOutOfTime: () => boolean = () => false,
  writeRules?: WriteRules,
): Promise<BatchResponse<RecordView>> {
  const startedAt = new Date(nowMs()).toISOString();
  const schema = await schemaForInputs(type, actor.hubId, input.inputs);
  const prepared: PreparedRecord[] = [];
  const lookups = newAccountLookups();
  for (const [index, entry] of input.inputs.entries())
    prepared.push(await forInput(index, () => prepareRecord(actor, type, entry, schema, lookups, writeRules)));
  await requireFreeUniqueValues(
    type,
    actor.hubId,
    prepared.map((entry) => ({ values: standardUniqueValues(type, entry.properties, entry.schema) })),
  );
  await requireAssociationTargets(
    actor.hubId,
    prepared.flatMap((entry) => entry.entries),
  );
  const outcomes = await createPreparedRecords(actor, type, prepared, deadlineMs, isOutOfTime);
  return envelope(
    startedAt,
    outcomes.flatMap((outcome, index) =>
      'record' in outcome ? [createdView(type, prepared[index] as PreparedRecord, outcome.record)] : [],
    ),
    outcomes.flatMap((outcome, index) =>
      'error' in outcome ? [batchErrorBody(outcome.error, input.inputs[index]?.objectWriteTraceId)] : [],
    ),
  );
}

/** What became of one prepared create: the record written (createdView answers it as the create does), or the client error that refused it. */
export type CreateOutcome = { record: CrmRecord } | { error: AppError };

/**
 * Writes creates that passed every check (prepareRecord, and the checks a batch makes across its
 * inputs: requireFreeUniqueValues, requireAssociationTargets) as batchCreateRecords writes them, so
 * that a caller which checks its records itself, as the fixtures do, checks each once. Answers each
 * input's outcome in the order of `prepared`; an error of the server's own (5xx, or anything
 * untyped) fails the whole call instead. The deadline and the caller's clock as for batchCreateRecords.
 */
export async function createPreparedRecords(
  actor: Actor,
  type: ObjectType,
  prepared: readonly PreparedRecord[],
  deadlineMs = Number.POSITIVE_INFINITY,
  isOutOfTime: () => boolean = () => false,
): Promise<CreateOutcome[]> {
  const isTimeUp = () => performance.now() > deadlineMs - batchReserveMs || isOutOfTime();
  if (isTimeUp())
    throw new ServiceUnavailableError('The batch was not started: too little time was left; retry it.', {
      headers: { 'retry-after': '1' },
    });
  const limits = associationLimitsReader(actor.hubId);
  // An input an association limit refuses (its record or a record it links) gets its error; the others are written.
  const plans = await mapConcurrently(prepared, 10, async (entry) => {
    try {
      return await plannedCreate(actor, type, entry, limits);
    } catch (error) {
      if (!(error instanceof AssociationLimitExceededError)) throw error;
      return { error };
    }
  });
  const planned = plans.flatMap((plan, index) => ('write' in plan ? [{ ...plan, index }] : []));
  const notWrittenPlans = await recordsDb.saveRecordsGrouped(
    type,
    actor.hubId,
    await withListWrites(
      type,
      actor.hubId,
      planned.map(({ write }) => ({
        write: { ...write, linksToSelf: rulesOf(type).linksToSelf },
        searchForms: searchFormsOf(type, write.record),
      })),
    ),
    groupedConcurrency,
    isTimeUp,
    createGroupItems,
  );
  const notWritten = new Set(planned.filter((_, position) => notWrittenPlans.has(position)).map(({ index }) => index));
  // The inputs not written yet get their outcome below, one by one.
  const outcomes: (CreateOutcome | undefined)[] = plans.map((plan, index) =>
    'error' in plan ? { error: plan.error } : notWritten.has(index) ? undefined : { record: plan.record },
  );
  const lanes = lanesBySharedTarget(prepared)
    .map((lane) => lane.filter((index) => notWritten.has(index)))
    .filter((lane) => lane.length > 0);
  await mapConcurrently(lanes, 10, async (lane) => {
    for (const index of lane) {
      if (isTimeUp()) {
        outcomes[index] = { error: notWrittenInTime(index) };
        continue;
      }
      try {
        outcomes[index] = { record: await commitPreparedRecord(actor, type, prepared[index] as PreparedRecord) };
      } catch (error) {
        if (!(error instanceof AppError) || error.status >= 500) throw error;
        outcomes[index] = { error };
      }
    }
  });
  // Every input is written in a group or has had its turn in a lane.
  return outcomes.map((outcome) => outcome as CreateOutcome);
}

export interface BatchUpdateInput {
  inputs: readonly { id: string; idProperty?: string; properties: RawProperties; objectWriteTraceId?: string }[];
}

/** One definitions read for the whole batch, whatever the number of inputs. */
export async function schemaForInputs(
  type: ObjectType,
  hubId: number,
  inputs: readonly { properties: RawProperties }[],
): Promise<PropertySchema> {
  return loadPropertySchema(type, hubId, new Set(inputs.flatMap((entry) => Object.keys(entry.properties))));
}

async function resolveIds(
  type: ObjectType,
  hubId: number,
  inputs: readonly { id: string; idProperty?: string }[],
): Promise<(string | undefined)[]> {
  const idProperties = new Map<string | undefined, Promise<string>>();
  const propertyOf = (idProperty: string | undefined): Promise<string> => {
    const resolved = idProperties.get(idProperty) ?? requireIdProperty(type, hubId, idProperty);
    idProperties.set(idProperty, resolved);
    return resolved;
  };
  // Resolved once per distinct idProperty, before the parallel part, so a bad one fails the call.
  for (const idProperty of new Set(inputs.map((entry) => entry.idProperty))) await propertyOf(idProperty);
  return mapConcurrently(inputs, 10, async (entry) => {
    const propertyName = await propertyOf(entry.idProperty);
    if (propertyName === 'hs_object_id') return isNumericId(entry.id) ? entry.id : undefined;
    const value = uniqueValueOf(type, propertyName, entry.id);
    return value ? recordsDb.findUniqueValueOwner(type, hubId, { propertyName, value }) : undefined;
  });
}

/** A 2026-09 batch checks each input's result against the account's write rules: a refused input is that input's error (207). */
export async function batchUpdateRecords(
  actor: Actor,
  type: ObjectType,
  input: BatchUpdateInput,
  writeRules?: WriteRules,
): Promise<BatchResponse<RecordView>> {
  const startedAt = new Date(nowMs()).toISOString();
  const schema = await schemaForInputs(type, actor.hubId, input.inputs);
  const prepared: PreparedUpdate[] = [];
  for (const [index, entry] of input.inputs.entries())
    prepared.push(await forInput(index, () => prepareUpdate(actor, type, entry, schema)));
  const ids = await resolveIds(type, actor.hubId, input.inputs);
  const lookups = newAccountLookups();
  await requireFreeUniqueValues(
    type,
    actor.hubId,
    prepared.map((entry, index) => ({
      ownId: ids[index],
      values: standardUniqueValues(type, entry.values, entry.schema),
    })),
  );
  const missing: string[] = [];
  const errors: BatchError[] = [];
  const results: RecordView[] = [];
  await mapConcurrently(input.inputs, 10, async (entry, index) => {
    const recordId = ids[index];
    const change = prepared[index];
    if (!change) return;
    try {
      const record =
        recordId === undefined
          ? undefined
          : await commitUpdate(actor, type, recordId, change.values, change.schema, lookups, writeRules);
      if (!record) missing.push(entry.id);
      else
        results.push(
          toRecordView(
            type,
            record,
            {
              properties: defaultsAnd(type, Object.keys(entry.properties)),
            },
            change.schema,
            true,
          ),
        );
    } catch (error) {
      errors.push(batchErrorOf(error, entry.objectWriteTraceId));
    }
  });
  if (missing.length > 0) errors.unshift(batchNotFoundError(missing));
  return envelope(startedAt, results, errors);
}

export interface BatchUpsertInput {
  inputs: readonly { id: string; idProperty?: string; properties: RawProperties; objectWriteTraceId?: string }[];
}

/**
 * By a unique property: update the record holding the value, or create one with it. A 2026-09
 * batch checks the create or the update against the account's write rules, as each input's own error.
 */
export async function batchUpsertRecords(
  actor: Actor,
  type: ObjectType,
  input: BatchUpsertInput,
  writeRules?: WriteRules,
): Promise<BatchResponse<RecordView & { new: boolean }>> {
  const startedAt = new Date(nowMs()).toISOString();
  const errors: BatchError[] = [];
  const results: (RecordView & { new: boolean })[] = [];
  const lookups = newAccountLookups();
  const schema = await loadPropertySchema(
    type,
    actor.hubId,
    new Set(input.inputs.flatMap((entry) => [...Object.keys(entry.properties), entry.idProperty ?? 'hs_object_id'])),
  );
  const idProperties = new Map<string | undefined, Promise<string>>();
  const idPropertyOf = (idProperty: string | undefined): Promise<string> => {
    const resolved = idProperties.get(idProperty) ?? requireIdProperty(type, actor.hubId, idProperty);
    idProperties.set(idProperty, resolved);
    return resolved;
  };
  // The create is prepared up front too; when it cannot be valid (say, no name), only an update can succeed.
  const plans: {
    propertyName: string;
    properties: RawProperties;
    update: PreparedUpdate;
    create: PreparedRecord | AppError;
  }[] = [];
  for (const [index, entry] of input.inputs.entries()) {
    plans.push(
      await forInput(index, async () => {
        const propertyName = await idPropertyOf(entry.idProperty);
        if (propertyName === 'hs_object_id') {
          throw new ValidationError(
            'Upsert needs an idProperty with unique values (domain or a custom property with hasUniqueValue)',
            { context: { idProperty: [entry.idProperty ?? 'hs_object_id'] } },
          );
        }
        const properties = { ...entry.properties, [propertyName]: entry.id };
        const create = await prepareRecord(actor, type, { properties }, schema, lookups, writeRules).catch(
          (error: unknown) => {
            if (error instanceof AppError && error.status < 500) return error;
            throw error;
          },
        );
        return { propertyName, properties, update: await prepareUpdate(actor, type, { properties }, schema), create };
      }),
    );
  }
  await mapConcurrently(input.inputs, 10, async (entry, index) => {
    const plan = plans[index];
    if (!plan) return;
    const value = uniqueValueOf(type, plan.propertyName, entry.id) ?? entry.id;
    const names = defaultsAnd(type, Object.keys(plan.properties));
    try {
      // A create that loses a race to another upsert of the same value becomes an update.
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const owner = await recordsDb.findUniqueValueOwner(type, actor.hubId, {
          propertyName: plan.propertyName,
          value,
        });
        if (owner) {
          const record = await commitUpdate(
            actor,
            type,
            owner,
            plan.update.values,
            plan.update.schema,
            lookups,
            writeRules,
          );
          if (record) {
            results.push({
              ...toRecordView(type, record, { properties: names }, plan.update.schema, true),
              new: false,
            });
            return;
          }
          continue;
        }
        if (plan.create instanceof AppError) throw plan.create;
        try {
          results.push({ ...(await commitRecord(actor, type, plan.create)), new: true });
          return;
        } catch (error) {
          if (!(error instanceof AppError) || error.status !== 409 || !(plan.propertyName in (error.context ?? {})))
            throw error;
        }
      }
      throw new ConflictError(
        `The ${singularWords(type)} with ${plan.propertyName} ${value} kept changing during the upsert; retry it`,
        { context: { [plan.propertyName]: [value] } },
      );
    } catch (error) {
      errors.push(batchErrorOf(error, entry.objectWriteTraceId));
    }
  });
  return envelope(startedAt, results, errors);
}

export async function batchArchiveRecords(
  type: ObjectType,
  hubId: number,
  input: { inputs: readonly { id: string }[] },
): Promise<void> {
  await mapConcurrently([...new Set(input.inputs.map((entry) => entry.id))], 10, (id) =>
    archiveRecord(type, hubId, id),
  );
}
