import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { replacePipeline } from '../../shared/pipelines/change-pipelines';
import { deleteFlagsQuery, pipelineIdPath, replacePipelineBody } from './pipeline.schema';
import { resolvePipelineType } from './resolve-pipeline-type';

export const handler = httpHandler(
  'replacePipeline',
  { path: pipelineIdPath, query: deleteFlagsQuery, body: replacePipelineBody },
  async ({ path, query, body, auth }) =>
    ok(
      await replacePipeline(
        auth,
        resolvePipelineType(auth, path.pipelineObjectType, 'write'),
        path.pipelineId,
        body,
        query,
      ),
    ),
);
