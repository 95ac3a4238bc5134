import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { updateStage } from '../../shared/pipelines/change-pipelines';
import { stageIdPath, updateStageBody } from './pipeline.schema';
import { resolvePipelineType } from './resolve-pipeline-type';

export const handler = httpHandler(
  'updatePipelineStage',
  { path: stageIdPath, body: updateStageBody },
  async ({ path, body, auth }) =>
    ok(
      await updateStage(
        auth,
        resolvePipelineType(auth, path.pipelineObjectType, 'write'),
        path.pipelineId,
        path.stageId,
        body,
      ),
    ),
);
