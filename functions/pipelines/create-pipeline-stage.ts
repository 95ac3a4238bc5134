import { httpHandler } from '../../shared/http/http-handler';
import { created } from '../../shared/http/responses';
import { createStage } from '../../shared/pipelines/change-pipelines';
import { createStageBody, pipelineIdPath } from './pipeline.schema';
import { resolvePipelineType } from './resolve-pipeline-type';

export const handler = httpHandler(
  'createPipelineStage',
  { path: pipelineIdPath, body: createStageBody },
  async ({ path, body, auth }) =>
    created(
      await createStage(auth, resolvePipelineType(auth, path.pipelineObjectType, 'write'), path.pipelineId, body),
    ),
);
