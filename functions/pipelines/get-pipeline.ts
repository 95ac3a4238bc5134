import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { getPipeline } from '../../shared/pipelines/read-pipelines';
import { pipelineIdPath } from './pipeline.schema';
import { resolvePipelineType } from './resolve-pipeline-type';

export const handler = httpHandler('getPipeline', { path: pipelineIdPath }, async ({ path, auth }) =>
  ok(await getPipeline(auth.hubId, resolvePipelineType(auth, path.pipelineObjectType, 'read'), path.pipelineId)),
);
