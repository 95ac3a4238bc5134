import { ValidationError } from '../base/errors';
import type { Scope } from '../oauth/scopes';
import { standardPipelineTypes } from '../objects/types/standalone-parts';

/** A stage as every account starts with it, or as a client describes one; metadata values are strings. */
export interface StageTemplate {
  id: string;
  label: string;
  displayOrder: number;
  metadata: Record<string, string>;
}

export interface PipelineTemplate {
  id: string;
  label: string;
  displayOrder: number;
  stages: readonly StageTemplate[];
}

/**
 * An object type that has pipelines: which tokens name it, who may read and change its pipelines,
 * the pipelines every account starts with, and its stages' metadata rule.
 */
export interface PipelineObjectType {
  id: string;
  name: string;
  scopes: { read: readonly Scope[]; write: readonly Scope[] };
  /** Every account's pipelines of this type until its first change (createdAt epoch 0). */
  defaults: readonly PipelineTemplate[];
  /** Checks a stage's metadata and completes it (isClosed); throws a ValidationError naming the field. */
  completeStageMetadata(metadata: Readonly<Record<string, string>>): Record<string, string>;
}

/** The types with pipelines: deals and tickets (their modules, shared/objects/types/, state their pipelines). */
export const pipelineObjectTypes: readonly PipelineObjectType[] = standardPipelineTypes;

export { dealPipelines } from '../objects/types/deals';
export { ticketPipelines } from '../objects/types/tickets';

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
