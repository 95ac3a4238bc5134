import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { getStage } from '../../shared/pipelines/read-pipelines';
import { stageIdPath } from './pipeline.schema';
import { resolvePipelineType } from './resolve-pipeline-type';

export const handler = httpHandler('getPipelineStage', { path: stageIdPath }, async ({ path, auth }) =>
  ok(
    await getStage(
      auth.hubId,
      resolvePipelineType(auth, path.pipelineObjectType, 'read'),
      path.pipelineId,
      path.stageId,
    ),
  ),
);
