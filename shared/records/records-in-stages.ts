import { scanSearchProjection } from '../db/search-projection';
import type { ObjectType } from '../objects/object-types';

/** Which asked stages some record stands in, and some of those records (shared/pipelines/stage-usage.ts answers with them). */
export interface StagesInUse {
  /** The asked stage ids that some record stands in. */
  stageIds: string[];
  /** Some of the records standing in them (the answer names them), not necessarily all. */
  objectIds: string[];
}

/** The answer names at most this many records standing in the stages, as HubSpot's lists a few. */
const maxNamedRecords = 10;
/** A refusal is worth a few seconds of reading at most; an account too large for that is answered 503 by the caller's budget. */
const lookupBudgetMs = 5000;

/**
 * Which of the stages of a pipeline some active record of the type stands in: one filtered read of
 * the type's search projection (written with every record, so consistent at once), stopped as soon
 * as every asked stage is known to be in use. Costs read capacity for the account's records of the
 * type; run only when a pipeline or stage is deleted.
 */
export async function findRecordsInStages(
  type: ObjectType,
  hubId: number,
  pipelineId: string,
  stageIds: readonly string[],
): Promise<StagesInUse> {
  const placement = type.pipeline;
  if (!placement || stageIds.length === 0) return { stageIds: [], objectIds: [] };
  const values: Record<string, unknown> = { ':pipeline': pipelineId };
  const stagePlaceholders = stageIds.map((stageId, index) => {
    values[`:s${index}`] = stageId;
    return `:s${index}`;
  });
  const used = new Set<string>();
  const objectIds: string[] = [];
  const found = new AbortController();
  const signal = AbortSignal.any([found.signal, AbortSignal.timeout(lookupBudgetMs)]);
  try {
    await scanSearchProjection(
      type,
      hubId,
      {
        filterExpression: `#v.#pipeline = :pipeline AND #v.#stage IN (${stagePlaceholders.join(', ')})`,
        projectionExpression: '#sk, #v.#stage',
        names: { '#sk': 'sk', '#v': 'v', '#pipeline': placement.property, '#stage': placement.stageProperty },
        values,
      },
      signal,
      (forms) => {
        for (const entry of forms) {
          const stage = entry.v[placement.stageProperty];
          if (stage !== undefined) used.add(stage);
          if (objectIds.length < maxNamedRecords) objectIds.push(entry.id);
        }
        if (used.size === stageIds.length) found.abort();
      },
    );
  } catch (error) {
    if (!found.signal.aborted) throw error;
  }
  return { stageIds: stageIds.filter((stageId) => used.has(stageId)), objectIds };
}
