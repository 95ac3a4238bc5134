import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { listStages } from '../../shared/pipelines/read-pipelines';
import { pipelineIdPath } from './pipeline.schema';
import { resolvePipelineType } from './resolve-pipeline-type';

export const handler = httpHandler('listPipelineStages', { path: pipelineIdPath }, async ({ path, auth }) =>
  ok({
    results: await listStages(auth.hubId, resolvePipelineType(auth, path.pipelineObjectType, 'read'), path.pipelineId),
  }),
);
