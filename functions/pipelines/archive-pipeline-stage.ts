import { httpHandler } from '../../shared/http/http-handler';
import { noContent } from '../../shared/http/responses';
import { archiveStage } from '../../shared/pipelines/change-pipelines';
import { deleteFlagsQuery, stageIdPath } from './pipeline.schema';
import { resolvePipelineType } from './resolve-pipeline-type';

export const handler = httpHandler(
  'archivePipelineStage',
  { path: stageIdPath, query: deleteFlagsQuery },
  async ({ path, query, auth }) => {
    await archiveStage(
      auth,
      resolvePipelineType(auth, path.pipelineObjectType, 'write'),
      path.pipelineId,
      path.stageId,
      query,
    );
    return noContent();
  },
);
