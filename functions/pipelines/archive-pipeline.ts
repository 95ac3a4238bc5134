import { httpHandler } from '../../shared/http/http-handler';
import { noContent } from '../../shared/http/responses';
import { archivePipeline } from '../../shared/pipelines/change-pipelines';
import { deleteFlagsQuery, pipelineIdPath } from './pipeline.schema';
import { resolvePipelineType } from './resolve-pipeline-type';

export const handler = httpHandler(
  'archivePipeline',
  { path: pipelineIdPath, query: deleteFlagsQuery },
  async ({ path, query, auth }) => {
    await archivePipeline(auth, resolvePipelineType(auth, path.pipelineObjectType, 'write'), path.pipelineId, query);
    return noContent();
  },
);
