import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { replaceStage } from '../../shared/pipelines/change-pipelines';
import { replaceStageBody, stageIdPath } from './pipeline.schema';
import { resolvePipelineType } from './resolve-pipeline-type';

export const handler = httpHandler(
  'replacePipelineStage',
  { path: stageIdPath, body: replaceStageBody },
  async ({ path, body, auth }) =>
    ok(
      await replaceStage(
        auth,
        resolvePipelineType(auth, path.pipelineObjectType, 'write'),
        path.pipelineId,
        path.stageId,
        body,
      ),
    ),
);
