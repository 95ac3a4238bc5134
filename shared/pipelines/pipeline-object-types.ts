import { standardPipelineTypes } from '#standard-pipelines';
import { ValidationError } from '../base/errors';
import type { PipelineObjectType } from '../objects/standard-type';

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
