import * as pipelines from '../db/pipelines';
import type { PipelineAuditEntry } from '../db/pipelines';
import type { PipelineObjectType } from './pipeline-object-types';
import {
  accountPipelines,
  pipelineIdPattern,
  pipelineView,
  requireLivePipeline,
  requireStage,
  stageNotFound,
  stageView,
  type PipelineStageView,
  type PipelineView,
} from './pipeline-view';

export async function listPipelines(hubId: number, type: PipelineObjectType): Promise<PipelineView[]> {
  return (await accountPipelines(hubId, type)).filter((pipeline) => !pipeline.archived).map(pipelineView);
}

export async function getPipeline(hubId: number, type: PipelineObjectType, pipelineId: string): Promise<PipelineView> {
  return pipelineView((await requireLivePipeline(hubId, type, pipelineId)).pipeline);
}

export async function listStages(
  hubId: number,
  type: PipelineObjectType,
  pipelineId: string,
): Promise<PipelineStageView[]> {
  return pipelineView((await requireLivePipeline(hubId, type, pipelineId)).pipeline).stages;
}

export async function getStage(
  hubId: number,
  type: PipelineObjectType,
  pipelineId: string,
  stageId: string,
): Promise<PipelineStageView> {
  return stageView(requireStage((await requireLivePipeline(hubId, type, pipelineId)).pipeline, stageId));
}

/** HubSpot's PublicAuditInfo. */
export interface AuditInfo {
  portalId: number;
  identifier: string;
  action: string;
  timestamp: string;
  message: string;
  rawObject: unknown;
  fromUserId: number;
}

/** The most entries an audit answer lists (newest first); the API has no paging for them. */
export const maxAuditEntries = 500;

const auditInfo =
  (hubId: number, identifier: string) =>
  (entry: PipelineAuditEntry): AuditInfo => ({
    portalId: hubId,
    identifier,
    action: entry.action,
    timestamp: entry.timestamp,
    message: entry.message,
    rawObject: entry.rawObject,
    fromUserId: entry.fromUserId,
  });

/**
 * Every change of a live pipeline and of its stages made through this API, newest first. A default
 * pipeline has none until it is first changed (it was not made by anyone).
 */
export async function getPipelineAudit(
  hubId: number,
  type: PipelineObjectType,
  pipelineId: string,
): Promise<AuditInfo[]> {
  await requireLivePipeline(hubId, type, pipelineId);
  return (await pipelines.listAuditEntries(hubId, type.id, { pipelineId }, maxAuditEntries)).map(
    auditInfo(hubId, pipelineId),
  );
}

/** What the official SDK 14 sends as the pipeline id of a stage audit: its path template, never filled in. */
export const unsubstitutedPipelineId = '{pipelineId}';

/**
 * The stage-level changes of a stage, newest first. `pipelineId` may be the SDK's unfilled
 * `{pipelineId}`: the stage is then looked for in every pipeline of the type. A stage that no longer
 * exists is still answered while it has entries (its deletion is one of them).
 */
export async function getStageAudit(
  hubId: number,
  type: PipelineObjectType,
  pipelineId: string,
  stageId: string,
): Promise<AuditInfo[]> {
  const anyPipeline = pipelineId === unsubstitutedPipelineId;
  const [holders, entries] = await Promise.all([
    anyPipeline
      ? accountPipelines(hubId, type)
      : requireLivePipeline(hubId, type, pipelineId).then((current) => [current.pipeline]),
    pipelineIdPattern.test(stageId)
      ? pipelines.listAuditEntries(hubId, type.id, { stageId }, maxAuditEntries)
      : Promise.resolve([]),
  ]);
  const ofPipeline = entries.filter((entry) => anyPipeline || entry.pipelineId === pipelineId);
  const exists = holders.some(
    (pipeline) => !pipeline.archived && pipeline.stages.some((stage) => stage.id === stageId),
  );
  if (ofPipeline.length === 0 && !exists) throw stageNotFound(pipelineId, stageId);
  return ofPipeline.map(auditInfo(hubId, stageId));
}
