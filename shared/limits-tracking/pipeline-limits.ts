import { readLivePipelineCounts } from '../db/pipelines';
import { pipelineObjectTypes } from '../pipelines/pipeline-object-types';
import { reportedLimits } from './limit-values';
import { limitAndUsage, overallUsage, type PerTypeLimits } from './limit-shapes';
import { customTrackedTypes, standardTrackedTypes } from './tracked-types';

/**
 * Pipelines per type (`/crm/v3/limits/pipelines`): the live pipelines of deals and tickets, from each
 * type's count item (a type never changed holds its defaults); custom types have none (this service
 * serves no custom object pipelines). One BatchGetItem and one Query of the schemas, side by side.
 */
export async function readPipelineLimits(hubId: number): Promise<PerTypeLimits> {
  const [counts, custom] = await Promise.all([
    readLivePipelineCounts(
      hubId,
      pipelineObjectTypes.map((type) => type.id),
    ),
    customTrackedTypes(hubId),
  ]);
  const withPipelines = standardTrackedTypes.flatMap(({ type, definition }) => {
    const pipelineType = pipelineObjectTypes.find((candidate) => candidate.id === type.id);
    return pipelineType ? [{ pipelineType, definition }] : [];
  });
  return {
    hubspotDefinedObjectTypes: withPipelines.map(({ pipelineType, definition }) =>
      limitAndUsage(
        definition,
        reportedLimits.pipelinesPerType,
        counts.get(pipelineType.id) ?? pipelineType.defaults.length,
      ),
    ),
    customObjectTypes: overallUsage(
      custom.map(({ definition }) => ({ definition, usage: 0 })),
      reportedLimits.customObjectPipelines,
    ),
  };
}
