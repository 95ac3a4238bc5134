import { standardPipelineTypes, standardStageMetadata } from '#standard-pipelines';
import { ValidationError } from '../base/errors';
import type { PipelineObjectType, StageMetadataRule } from '../objects/standard-type';

export type { PipelineObjectType, PipelineTemplate, StageTemplate } from '../objects/standard-type';

/** The types with pipelines: deals and tickets (their modules, shared/objects/types/, state their pipelines). */
export const pipelineObjectTypes: readonly PipelineObjectType[] = standardPipelineTypes;

/** The plural name or the type id, in any case: `deals`, `0-3`, `tickets`, `0-5`. */
export function findPipelineObjectType(token: string): PipelineObjectType | undefined {
  const wanted = token.toLowerCase();
  return pipelineObjectTypes.find((type) => type.name === wanted || type.id === wanted);
}

export function requirePipelineObjectType(token: string): PipelineObjectType {
  const type = findPipelineObjectType(token);
  if (!type) {
    throw new ValidationError(
      `Unable to infer object type from: ${token}. Pipelines exist for ${pipelineObjectTypes.map((known) => `${known.name} (${known.id})`).join(' and ')}.`,
      {
        context: { objectType: [token] },
      },
    );
  }
  return type;
}

/** The type's stage metadata rule (its module's `stageMetadata`); a type without one keeps the metadata as sent. */
export function stageMetadataRuleOf(type: Pick<PipelineObjectType, 'id'>): StageMetadataRule {
  return standardStageMetadata.find(([id]) => id === type.id)?.[1] ?? ((metadata) => ({ ...metadata }));
}
