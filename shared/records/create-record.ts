import type { ObjectType } from '../objects/object-types';
import {
  checkAssociationLimits,
  resolveAssociationInputs,
  completeNewRecordLinks,
  reverseLinksOf,
  withOnePrimary,
  type AssociationEntry,
  type AssociationInput,
} from './association-entries';
import { nowMs } from '../base/clock';
import { findRecord, type CrmRecord, type RecordWrite, type UniqueValue } from '../db/records';
import { loadPropertySchema, type PropertySchema } from '../properties/type-properties';
import { propertyValuesError } from '../properties/validate-property-values';
import { newRecordId } from './record-id';
import {
  appendHistory,
  fitItemSize,
  historyEntry,
  normalizeValues,
  requireRecordProperties,
  uniqueValuesOf,
  type Actor,
  type RawProperties,
} from './record-values';
import { associationKey, defaultsAnd, toRecordView, type RecordView } from './record-view';
import { addedEdges, saveWithRetries } from './save-record';
import { rulesOf } from './type-rules-lookup';
import { checkAccountValues, newAccountLookups, referencedValues, type AccountLookups } from './account-values';
import { clientKeyedRecord, clientKeyedRecordOf } from '../base/client-keys';
import {
  associationLimitsReader,
  noAssociationLimits,
  type AssociationLimitsReader,
} from '../association-limits/association-limit-set';
import { checkConfiguredLimits, limitLinkedChanges } from '../association-limits/enforce-association-limits';
import { requireWriteRules, type WriteRules } from './write-validation';

export interface NewRecord {
  properties: RawProperties;
  associations?: readonly AssociationInput[];
}

/** A create checked against every rule, ready to be written. */
export interface PreparedRecord {
  properties: Record<string, string>;
  entries: AssociationEntry[];
  uniqueValues: UniqueValue[];
  schema: PropertySchema;
  sentNames: string[];
}

/**
 * A batch passes the definitions it loaded once for all its inputs; a 2026-09 write the account's
 * write rules (write-validation.ts), checked last, before anything is written.
 */
export async function prepareRecord(
  actor: Actor,
  type: ObjectType,
  input: NewRecord,
  loaded?: PropertySchema,
  lookups?: AccountLookups,
  writeRules?: WriteRules,
): Promise<PreparedRecord> {
  const schema = loaded ?? (await loadPropertySchema(type, actor.hubId, Object.keys(input.properties)));
  const values = normalizeValues(type, input.properties, schema);
  const properties = clientKeyedRecordOf(Object.entries(values).filter(([, value]) => value !== ''));
  // A record of a type with pipelines stands in the default pipeline unless the create names one.
  if (type.pipeline && properties[type.pipeline.property] === undefined)
    properties[type.pipeline.property] = type.pipeline.defaultPipelineId;
  for (const [name, value] of Object.entries(rulesOf(type).valuesOnCreate ?? {}))
    if (properties[name] === undefined) properties[name] = value;
  const accountLookups = lookups ?? newAccountLookups();
  Object.assign(properties, await referencedValues(type, actor.hubId, properties, accountLookups));
  requireRecordProperties(type, properties);
  await checkAccountValues(type, actor.hubId, properties, Object.keys(properties), accountLookups);
  await requireWriteRules(type, actor.hubId, writeRules, properties, 'create', accountLookups);
  const entries = await resolveAssociationInputs(type, actor.hubId, input.associations ?? []);
  const pinned = properties.hs_pinned_engagement_id;
  if (pinned !== undefined && !entries.some((entry) => entry.to.isActivity && entry.toObjectId === pinned)) {
    throw propertyValuesError([
      {
        name: 'hs_pinned_engagement_id',
        error: 'INVALID_PINNED_ENGAGEMENT',
        message: `Activity ${pinned} must be associated with the ${type.singular} in the same request to be pinned`,
      },
    ]);
  }
  return {
    properties,
    entries,
    uniqueValues: uniqueValuesOf(type, properties, schema, Object.keys(properties)),
    schema,
    sentNames: Object.keys(input.properties),
  };
}

function recordOf(actor: Actor, type: ObjectType, prepared: PreparedRecord): CrmRecord {
  const now = new Date(nowMs()).toISOString();
  const history = clientKeyedRecord<CrmRecord['history'][string]>();
  for (const [name, value] of Object.entries(prepared.properties))
    history[name] = appendHistory(undefined, historyEntry(value, now, actor));
  const record: CrmRecord = {
    id: newRecordId(),
    properties: prepared.properties,
    history,
    associations: withOnePrimary(
      type,
      {},
      Object.fromEntries(
        prepared.entries.map((entry) => [
          associationKey(entry.to.id, entry.toObjectId, entry.type.typeId),
          entry.type.name,
        ]),
      ),
    ),
    uniqueValues: prepared.uniqueValues,
    createdAt: now,
    updatedAt: now,
    archived: false,
    version: 1,
  };
  checkAssociationLimits(type, record);
  return fitItemSize(record);
}

/**
 * One TransactWriteItems: the record, its unique values and the other side of its associations
 * with stored records, all or nothing. A new id is drawn only if the rare id collision happens.
 * Answers the record written.
 */
export async function commitPreparedRecord(
  actor: Actor,
  type: ObjectType,
  prepared: PreparedRecord,
): Promise<CrmRecord> {
  let record = recordOf(actor, type, prepared);
  const limits = associationLimitsReader(actor.hubId);
  await saveWithRetries(type, actor.hubId, async (attempt) => {
    if (attempt > 0) record = { ...record, id: newRecordId() };
    return newRecordWrite(actor.hubId, type, record, prepared.entries, limits);
  });
  return record;
}

/** commitPreparedRecord, answered as the create answers it. */
export async function commitRecord(actor: Actor, type: ObjectType, prepared: PreparedRecord): Promise<RecordView> {
  return createdView(type, prepared, await commitPreparedRecord(actor, type, prepared));
}

/**
 * The write of a new record: the record, its unique values and the other side of its associations
 * with stored records (a company made primary takes the primary from the one that was), under the
 * account's association limits on both sides (read only for a record with associations).
 */
async function newRecordWrite(
  hubId: number,
  type: ObjectType,
  record: CrmRecord,
  entries: readonly AssociationEntry[],
  limits: AssociationLimitsReader,
): Promise<RecordWrite> {
  const read = (otherType: ObjectType, id: string) => findRecord(otherType, hubId, id);
  const linked = await completeNewRecordLinks(
    type,
    record.id,
    reverseLinksOf(type, record.id, entries, record.associations),
    read,
  );
  const limitSet = Object.keys(record.associations).length > 0 ? await limits() : noAssociationLimits;
  checkConfiguredLimits(limitSet, type, record);
  return {
    record,
    addUnique: record.uniqueValues,
    removeUnique: [],
    linked: await limitLinkedChanges(limitSet, type, linked, read),
  };
}

/** A prepared create as its record and write, for a batch that writes many in few transactions. */
export async function plannedCreate(
  actor: Actor,
  type: ObjectType,
  prepared: PreparedRecord,
  limits: AssociationLimitsReader = associationLimitsReader(actor.hubId),
): Promise<{ record: CrmRecord; write: RecordWrite }> {
  const record = recordOf(actor, type, prepared);
  const write = await newRecordWrite(actor.hubId, type, record, prepared.entries, limits);
  return { record, write: { ...write, edges: addedEdges({}, record.associations) } };
}

/** What a create answers: the defaults and every property it sent (and the pipeline it was given). */
export function createdView(type: ObjectType, prepared: PreparedRecord, record: CrmRecord): RecordView {
  const names = defaultsAnd(type, [
    ...prepared.sentNames,
    ...(type.pipeline ? [type.pipeline.property] : []),
    ...Object.keys(rulesOf(type).valuesOnCreate ?? {}),
  ]);
  return toRecordView(type, record, { properties: names }, prepared.schema, true);
}

export async function createRecord(
  actor: Actor,
  type: ObjectType,
  input: NewRecord,
  writeRules?: WriteRules,
): Promise<RecordView> {
  return commitRecord(actor, type, await prepareRecord(actor, type, input, undefined, undefined, writeRules));
}
