import { findOwner } from '../db/owners';
import type { ObjectType } from '../objects/object-types';
import { findPipelineObjectType } from '../pipelines/pipeline-object-types';
import { accountPipelines } from '../pipelines/pipeline-view';
import type { StoredPipeline, StoredStage } from '../db/pipelines';
import { propertyValuesError, quoteValue, type InvalidValue } from '../properties/validate-property-values';
import { ownValue } from '../base/client-keys';
import { findRecord, type CrmRecord } from '../db/records';
import { storedTypeById } from '../objects/object-types';
import { isNumericId } from './record-id';
import { rulesOf } from './type-rules-lookup';

/**
 * The checks of values against the account's own data, run on what a create or an update leaves
 * (`changed`: the names it set): `hubspot_owner_id` names an owner of the account (errors[].code
 * INVALID_OWNER_ID), a record with a pipeline stands in a live stage of a live pipeline (INVALID_OPTION
 * naming the stage property, or the pipeline property). One read per check a write needs; none when
 * it sets none of these properties. (An email blocked by a GDPR delete is refused by its unique-value
 * claim, in the write itself: shared/db/records.ts blockUniqueValue.)
 */
/**
 * What the checks read, kept for one request: a batch reads the account's pipelines of a type once,
 * and each owner id once, however many of its inputs name them.
 */
export interface AccountLookups {
  pipelines: Map<string, Promise<StoredPipeline[]>>;
  owners: Map<number, Promise<boolean>>;
  /** Records a value references (a line item's product), by `<typeId>/<id>`. */
  records: Map<string, Promise<CrmRecord | undefined>>;
}

export const newAccountLookups = (): AccountLookups => ({
  pipelines: new Map(),
  owners: new Map(),
  records: new Map(),
});

/** The record a reference property names, read once per request; undefined when it does not exist (or is archived). */
function referencedRecord(
  hubId: number,
  typeId: string,
  id: string,
  lookups: AccountLookups,
): Promise<CrmRecord | undefined> {
  const type = storedTypeById(typeId);
  if (!type || !isNumericId(id)) return Promise.resolve(undefined);
  const key = `${typeId}/${id}`;
  let found = lookups.records.get(key);
  if (!found) {
    found = findRecord(type, hubId, id).then((record) => (record?.archived ? undefined : record));
    lookups.records.set(key, found);
  }
  return found;
}

/**
 * The values a create takes from the record its reference property names (a line item's product:
 * name, price, SKU, description), for each it does not send itself; none when the property is unset
 * or names no record (checkAccountValues then refuses it).
 */
export async function referencedValues(
  type: ObjectType,
  hubId: number,
  properties: Readonly<Record<string, string>>,
  lookups: AccountLookups,
): Promise<Record<string, string>> {
  const reference = rulesOf(type).valuesFromReference;
  const id = reference ? ownValue(properties, reference.property) : undefined;
  if (!reference || id === undefined) return {};
  const record = await referencedRecord(hubId, reference.typeId, id, lookups);
  if (!record) return {};
  return Object.fromEntries(
    reference.copied.flatMap((name) => {
      const value = ownValue(record.properties, name);
      return ownValue(properties, name) === undefined && value !== undefined ? [[name, value]] : [];
    }),
  );
}

export async function checkAccountValues(
  type: ObjectType,
  hubId: number,
  properties: Record<string, string>,
  changed: readonly string[],
  lookups: AccountLookups = newAccountLookups(),
): Promise<void> {
  const invalid: InvalidValue[] = [];
  const owner = ownValue(properties, 'hubspot_owner_id');
  if (changed.includes('hubspot_owner_id') && owner) {
    const ownerId = Number(owner);
    if (!Number.isSafeInteger(ownerId) || !(await ownerExists(hubId, ownerId, lookups)))
      invalid.push({
        name: 'hubspot_owner_id',
        error: 'INVALID_OWNER_ID',
        message: `${quoteValue(owner)} was not a valid owner ID`,
      });
  }
  const placement = type.pipeline;
  if (placement && (changed.includes(placement.property) || changed.includes(placement.stageProperty))) {
    invalid.push(...(await pipelineProblems(type, hubId, properties, lookups)));
  }
  const reference = rulesOf(type).valuesFromReference;
  const referenced = reference ? ownValue(properties, reference.property) : undefined;
  if (reference && referenced !== undefined && changed.includes(reference.property)) {
    if (!(await referencedRecord(hubId, reference.typeId, referenced, lookups))) {
      const singular = storedTypeById(reference.typeId)?.singular ?? 'record';
      invalid.push({
        name: reference.property,
        error: 'INVALID_OBJECT_ID',
        message: `${quoteValue(referenced)} is not the id of an existing ${singular}`,
      });
    }
  }
  if (invalid.length > 0) throw propertyValuesError(invalid);
}

function ownerExists(hubId: number, ownerId: number, lookups: AccountLookups): Promise<boolean> {
  let found = lookups.owners.get(ownerId);
  if (!found) {
    found = findOwner(hubId, ownerId).then((owner) => owner !== undefined);
    lookups.owners.set(ownerId, found);
  }
  return found;
}

/** The account's live pipelines of the type, read once per request (none for a type without pipelines). */
async function livePipelines(type: ObjectType, hubId: number, lookups: AccountLookups): Promise<StoredPipeline[]> {
  const pipelineType = findPipelineObjectType(type.id);
  if (!pipelineType) return [];
  let read = lookups.pipelines.get(type.id);
  if (!read) {
    read = accountPipelines(hubId, pipelineType);
    lookups.pipelines.set(type.id, read);
  }
  return (await read).filter((pipeline) => !pipeline.archived);
}

/** The live stage a record with these properties stands in, or undefined (no stage, or none of a live pipeline). */
export async function stageOfRecord(
  type: ObjectType,
  hubId: number,
  properties: Readonly<Record<string, string>>,
  lookups: AccountLookups,
): Promise<StoredStage | undefined> {
  const placement = type.pipeline;
  const stageId = placement ? ownValue(properties, placement.stageProperty) : undefined;
  if (!placement || stageId === undefined) return undefined;
  const pipelineId = ownValue(properties, placement.property);
  const pipeline = (await livePipelines(type, hubId, lookups)).find((candidate) => candidate.id === pipelineId);
  return pipeline?.stages.find((stage) => stage.id === stageId);
}

async function pipelineProblems(
  type: ObjectType,
  hubId: number,
  properties: Record<string, string>,
  lookups: AccountLookups,
): Promise<InvalidValue[]> {
  const placement = type.pipeline;
  const pipelineType = findPipelineObjectType(type.id);
  if (!placement || !pipelineType) return [];
  const pipelineId = ownValue(properties, placement.property);
  const stageId = ownValue(properties, placement.stageProperty);
  const live = await livePipelines(type, hubId, lookups);
  const pipeline = live.find((candidate) => candidate.id === pipelineId);
  if (!pipeline) {
    return [
      {
        name: placement.property,
        error: 'INVALID_OPTION',
        message: `${quoteValue(pipelineId ?? '')} is not a valid pipeline ID. Valid options are: [${live.map((candidate) => candidate.id).join(', ')}]`,
      },
    ];
  }
  if (stageId === undefined || pipeline.stages.some((stage) => stage.id === stageId)) return [];
  return [
    {
      name: placement.stageProperty,
      error: 'INVALID_OPTION',
      message: `${quoteValue(stageId)} is not a valid pipeline stage ID. Valid options are: pipelineId=${pipeline.id} : [${pipeline.stages.map((stage) => stage.id).join(', ')}]`,
    },
  ];
}
