import { findObjectType } from '../objects/object-types';
import { findRecordsInStages, type StagesInUse } from '../records/records-in-stages';
import { pipelineObjectTypes } from './pipeline-object-types';

/**
 * Which records stand in a pipeline's stages: a pipeline or stage that a record uses cannot be
 * deleted (400 VALIDATION_ERROR, subCategory PipelineError.STAGE_ID_IN_USE). The record engine
 * provides the lookup of each type with pipelines (pipeline-object-types.ts) in the table below. Each route
 * is its own function: an entry must be in this table (imported by the pipeline handlers), not
 * registered by a record module the pipeline functions never load.
 */
export type { StagesInUse } from '../records/records-in-stages';

export type StageUsageLookup = (hubId: number, pipelineId: string, stageIds: readonly string[]) => Promise<StagesInUse>;

/** The engine's lookup for a type with pipelines, by type id: its records' search projection. */
const engineLookup =
  (objectTypeId: string): StageUsageLookup =>
  (hubId, pipelineId, stageIds) => {
    const type = findObjectType(objectTypeId);
    return type
      ? findRecordsInStages(type, hubId, pipelineId, stageIds)
      : Promise.resolve({ stageIds: [], objectIds: [] });
  };

const deployedLookups: ReadonlyMap<string, StageUsageLookup> = new Map(
  pipelineObjectTypes.map((type) => [type.id, engineLookup(type.id)]),
);
const lookups = new Map(deployedLookups);

/** Sets a type's lookup at run time (tests of the refusal; the deployed lookups are the table's). A second call replaces the first. */
export function registerStageUsageLookup(objectTypeId: string, lookup: StageUsageLookup): void {
  lookups.set(objectTypeId, lookup);
}

/** Puts a type's deployed lookup back (tests that register one restore it with this). */
export function restoreStageUsageLookup(objectTypeId: string): void {
  const deployed = deployedLookups.get(objectTypeId);
  if (deployed) lookups.set(objectTypeId, deployed);
  else lookups.delete(objectTypeId);
}

export async function findStagesInUse(
  hubId: number,
  objectTypeId: string,
  pipelineId: string,
  stageIds: readonly string[],
): Promise<StagesInUse> {
  const lookup = lookups.get(objectTypeId);
  if (!lookup || stageIds.length === 0) return { stageIds: [], objectIds: [] };
  return lookup(hubId, pipelineId, stageIds);
}
