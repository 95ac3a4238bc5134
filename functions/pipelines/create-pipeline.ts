import { httpHandler } from '../../shared/http/http-handler';
import { created } from '../../shared/http/responses';
import { createPipeline } from '../../shared/pipelines/change-pipelines';
import { createPipelineBody, pipelinePath } from './pipeline.schema';
import { resolvePipelineType } from './resolve-pipeline-type';

export const handler = httpHandler(
  'createPipeline',
  { path: pipelinePath, body: createPipelineBody },
  async ({ path, body, auth }) =>
    created(await createPipeline(auth, resolvePipelineType(auth, path.pipelineObjectType, 'write'), body)),
);
