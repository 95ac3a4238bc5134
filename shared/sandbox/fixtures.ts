import { resolveTypeBetween } from '../association-types/association-labels';
import { batchCreateAssociations } from '../associations/batch-associations';
import { AppError, ServiceUnavailableError, ValidationError } from '../base/errors';
import type { BatchError, BatchResponse } from '../base/batch-results';
import { mapConcurrently } from '../base/map-concurrently';
import { customTypeTokens, withAccountTypes } from '../objects/account-object-types';
import { requireStoredObjectType, type ObjectType } from '../objects/object-types';
import type { PropertySchema } from '../properties/type-properties';
import {
  batchCreateRecords,
  requireFreeUniqueValues,
  schemaForInputs,
  standardUniqueValues,
} from '../records/batch-records';
import { prepareRecord, type PreparedRecord } from '../records/create-record';
import { newAccountLookups } from '../records/account-values';
import type { Actor, RawProperties } from '../records/record-values';
import { deleteRecordForGoodById } from '../records/archive-record';
import { ownerOfTestAccount, requireTestAccount, type Developer } from './access';

export const maxFixtureRecords = 1000;
/** Inputs of one batch create (the API's batch limit). */
const recordsPerBatch = 100;

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

/** A batch's refusal of one input, as the error the single call would have thrown (a race lost after the checks). */
class RefusedInputError extends AppError {
  readonly status: number;
  readonly category: string;
  constructor(error: BatchError) {
    super(error.message, { context: error.context });
    this.category = error.category;
    this.status = /CONFLICT|ALREADY_EXISTS/.test(error.category)
      ? 409
      : error.category === 'OBJECT_NOT_FOUND'
        ? 404
        : 400;
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

/**
 * The created records, removed for good again (a write of the call failed after others had
 * succeeded), ten at a time; one still being changed after every retry is left (the call answers its error).
 */
async function removeCreated(hubId: number, created: readonly { type: ObjectType; id: string }[]): Promise<void> {
  await mapConcurrently(created, 10, ({ type, id }) => deleteRecordForGoodById(type, hubId, id, () => undefined));
}

function firstError<T>(response: BatchResponse<T>): AppError | undefined {
  const error = response.errors?.[0];
  return error ? new RefusedInputError(error) : undefined;
}

/**
 * Loads records and associations into a test account, all or nothing: every record and association
 * is checked as the API would check it (the first refused one answers what the API would, 400 or
 * 409) before anything is written; then the records go in through the batch create (webhooks fire
 * as for API writes) and the associations through the v4 batch create. A write that still fails (a
 * unique value taken by a concurrent request meanwhile) removes what the call had created and
 * answers that write's error. Answers each ref's record id.
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
  const owner = await ownerOfTestAccount(link.hubId);
  const actor: Actor = { hubId: link.hubId, appId: 0, userId: owner?.userId ?? 0 };
  const tokens = entries.map((entry) => entry.objectType);
  return withAccountTypes(link.hubId, customTypeTokens(tokens), async () => {
    const prepared = await prepareAll(actor, entries);
    const byRef = new Map(prepared.map((entry) => [entry.entry.ref, entry]));
    // Associations: both refs loaded by this call, and each type one the API takes for the pair.
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
      for (const spec of association.types)
        await resolveTypeBetween(link.hubId, from.type, to.type, spec.associationTypeId, spec.associationCategory);
    }
    if (performance.now() > deadlineMs - 5000)
      throw new ServiceUnavailableError('The fixtures were not loaded: too little time was left; retry the request.');
    const ids = new Map<string, string>();
    const created: { type: ObjectType; id: string }[] = [];
    try {
      for (const type of new Set(prepared.map((entry) => entry.type))) {
        const ofType = prepared.filter((entry) => entry.type === type);
        for (let start = 0; start < ofType.length; start += recordsPerBatch) {
          const chunk = ofType.slice(start, start + recordsPerBatch);
          const response = await batchCreateRecords(
            actor,
            type,
            { inputs: chunk.map(({ entry }) => ({ properties: entry.properties })) },
            deadlineMs,
          );
          response.results.forEach((view, index) => {
            const ref = chunk[index]?.entry.ref;
            created.push({ type, id: view.id });
            if (ref !== undefined && !response.errors) ids.set(ref, view.id);
          });
          const refused = firstError(response);
          if (refused) throw refused;
        }
      }
      const pairs = new Map<string, { from: ObjectType; to: ObjectType; inputs: FixtureAssociation[] }>();
      for (const association of associations) {
        const from = byRef.get(association.from) as Prepared;
        const to = byRef.get(association.to) as Prepared;
        const key = `${from.type.id}/${to.type.id}`;
        const pair = pairs.get(key) ?? { from: from.type, to: to.type, inputs: [] };
        pair.inputs.push(association);
        pairs.set(key, pair);
      }
      for (const pair of pairs.values()) {
        const response = await batchCreateAssociations(
          actor,
          pair.from.id,
          pair.to.id,
          pair.inputs.map((association) => ({
            from: { id: ids.get(association.from) ?? '' },
            to: { id: ids.get(association.to) ?? '' },
            types: association.types,
          })),
          { functionDeadlineMs: deadlineMs },
        );
        const refused = firstError(response);
        if (refused) throw refused;
      }
    } catch (error) {
      await removeCreated(link.hubId, created);
      throw error;
    }
    return { ids: Object.fromEntries(ids) };
  });
}
