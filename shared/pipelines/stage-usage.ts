/**
 * Which records stand in a pipeline's stages: a pipeline or stage that a record uses cannot be
 * deleted (400 VALIDATION_ERROR, subCategory PipelineError.STAGE_ID_IN_USE). The pipelines know no
 * records: the record engine provides one lookup per type with a pipeline (deals, tickets) in the
 * table below. Deal and ticket records are not stored yet, so the table is empty and no stage is
 * in use. Each route is its own function: an entry must be in this table (imported by the pipeline
 * handlers), not registered by a record module the pipeline functions never load.
 */
export interface StagesInUse {
  /** The asked stage ids that some record stands in. */
  stageIds: string[];
  /** Some of the records standing in them (the answer names them), not necessarily all. */
  objectIds: string[];
}

export type StageUsageLookup = (hubId: number, pipelineId: string, stageIds: readonly string[]) => Promise<StagesInUse>;

const lookups = new Map<string, StageUsageLookup>([
  // The record engine's entries, by object type id, e.g. ['0-3', findDealsInStages], ['0-5', findTicketsInStages].
]);

/** Sets a type's lookup at run time (tests of the refusal; the deployed lookups are the table's). A second call replaces the first. */
export function registerStageUsageLookup(objectTypeId: string, lookup: StageUsageLookup): void {
  lookups.set(objectTypeId, lookup);
}

/** Forgets a type's lookup (tests that register one put things back with it). */
export function unregisterStageUsageLookup(objectTypeId: string): void {
  lookups.delete(objectTypeId);
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
