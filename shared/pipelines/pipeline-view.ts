import { NotFoundError } from '../base/errors';
import * as pipelines from '../db/pipelines';
import type { StoredPipeline, StoredStage } from '../db/pipelines';
import type { PipelineObjectType, PipelineTemplate } from './pipeline-object-types';

/** HubSpot's PipelineStage. Archived stages are not kept (their audit entries are), so every stage shown is live. */
export interface PipelineStageView extends StoredStage {
  archived: false;
  writePermissions: 'CRM_PERMISSIONS_ENFORCEMENT';
}

/** HubSpot's Pipeline: stages in display order. */
export interface PipelineView {
  id: string;
  label: string;
  displayOrder: number;
  stages: PipelineStageView[];
  createdAt: string;
  updatedAt: string;
  archived: boolean;
  archivedAt?: string;
}

/** The ids this service stores: no '#' (a key separator), nothing a key could not hold. */
export const pipelineIdPattern = /^[A-Za-z0-9_.-]{1,100}$/;

/** "The default pipelines will have createdAt = 0." */
const epoch = '1970-01-01T00:00:00.000Z';

export function defaultPipeline(template: PipelineTemplate): StoredPipeline {
  return {
    id: template.id,
    label: template.label,
    displayOrder: template.displayOrder,
    archived: false,
    createdAt: epoch,
    updatedAt: epoch,
    revision: 0,
    stages: template.stages.map((stage) => ({
      ...stage,
      metadata: { ...stage.metadata },
      createdAt: epoch,
      updatedAt: epoch,
    })),
  };
}

const byDisplayOrder = <T extends { displayOrder: number; createdAt: string; id: string }>(a: T, b: T): number =>
  a.displayOrder - b.displayOrder || a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id);

export function stageView(stage: StoredStage): PipelineStageView {
  return {
    id: stage.id,
    label: stage.label,
    displayOrder: stage.displayOrder,
    metadata: { ...stage.metadata },
    createdAt: stage.createdAt,
    updatedAt: stage.updatedAt,
    archived: false,
    writePermissions: 'CRM_PERMISSIONS_ENFORCEMENT',
  };
}

export function pipelineView(pipeline: StoredPipeline): PipelineView {
  return {
    id: pipeline.id,
    label: pipeline.label,
    displayOrder: pipeline.displayOrder,
    stages: [...pipeline.stages].sort(byDisplayOrder).map(stageView),
    createdAt: pipeline.createdAt,
    updatedAt: pipeline.updatedAt,
    archived: pipeline.archived,
    ...(pipeline.archivedAt === undefined ? {} : { archivedAt: pipeline.archivedAt }),
  };
}

/** The type's pipelines as the account has them, archived ones too: the defaults until the type's first change. */
export async function accountPipelines(hubId: number, type: PipelineObjectType): Promise<StoredPipeline[]> {
  const stored = await pipelines.listPipelines(hubId, type.id);
  return (stored.length === 0 ? type.defaults.map(defaultPipeline) : stored).sort(byDisplayOrder);
}

/** A pipeline as the account has it; `isStored` false for a default before the type's first change. */
export interface CurrentPipeline {
  pipeline: StoredPipeline;
  isStored: boolean;
}

/**
 * One GetItem: a stored pipeline is the truth; no item under a default's id means the type has had
 * no change yet (pipeline items are never deleted), so the default is as it ships.
 */
export async function findCurrentPipeline(
  hubId: number,
  type: PipelineObjectType,
  pipelineId: string,
): Promise<CurrentPipeline | undefined> {
  if (!pipelineIdPattern.test(pipelineId)) return undefined;
  const stored = await pipelines.findPipeline(hubId, type.id, pipelineId);
  if (stored) return { pipeline: stored, isStored: true };
  const template = type.defaults.find((candidate) => candidate.id === pipelineId);
  return template ? { pipeline: defaultPipeline(template), isStored: false } : undefined;
}

/** A pipeline of another account answers exactly as one that exists nowhere. */
export function pipelineNotFound(pipelineId: string): NotFoundError {
  return new NotFoundError(`Unable to find pipeline ${pipelineId}`, { context: { pipelineId: [pipelineId] } });
}

export function stageNotFound(pipelineId: string, stageId: string): NotFoundError {
  return new NotFoundError(`Unable to find stage ${stageId} in pipeline ${pipelineId}`, {
    context: { pipelineId: [pipelineId], stageId: [stageId] },
  });
}

/** A live pipeline, or 404 (endpoints that take a pipeline id need an existing, un-archived one). */
export async function requireLivePipeline(
  hubId: number,
  type: PipelineObjectType,
  pipelineId: string,
): Promise<CurrentPipeline> {
  const current = await findCurrentPipeline(hubId, type, pipelineId);
  if (!current || current.pipeline.archived) throw pipelineNotFound(pipelineId);
  return current;
}

export function requireStage(pipeline: StoredPipeline, stageId: string): StoredStage {
  const stage = pipeline.stages.find((candidate) => candidate.id === stageId);
  if (!stage) throw stageNotFound(pipeline.id, stageId);
  return stage;
}
