import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { getStageAudit } from '../../shared/pipelines/read-pipelines';
import { stageIdPath } from './pipeline.schema';
import { resolvePipelineType } from './resolve-pipeline-type';

/** The official SDK 14 sends this path with `{pipelineId}` left unfilled (%7BpipelineId%7D): the domain accepts it. */
export const handler = httpHandler('getPipelineStageAudit', { path: stageIdPath }, async ({ path, auth }) =>
  ok({
    results: await getStageAudit(
      auth.hubId,
      resolvePipelineType(auth, path.pipelineObjectType, 'read'),
      path.pipelineId,
      path.stageId,
    ),
  }),
);
