import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { updatePipeline } from '../../shared/pipelines/change-pipelines';
import { deleteFlagsQuery, pipelineIdPath, updatePipelineBody } from './pipeline.schema';
import { resolvePipelineType } from './resolve-pipeline-type';

export const handler = httpHandler(
  'updatePipeline',
  { path: pipelineIdPath, query: deleteFlagsQuery, body: updatePipelineBody },
  async ({ path, body, auth }) =>
    ok(await updatePipeline(auth, resolvePipelineType(auth, path.pipelineObjectType, 'write'), path.pipelineId, body)),
);
