import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { listPipelines } from '../../shared/pipelines/read-pipelines';
import { pipelinePath } from './pipeline.schema';
import { resolvePipelineType } from './resolve-pipeline-type';

export const handler = httpHandler('listPipelines', { path: pipelinePath }, async ({ path, auth }) =>
  ok({ results: await listPipelines(auth.hubId, resolvePipelineType(auth, path.pipelineObjectType, 'read')) }),
);
