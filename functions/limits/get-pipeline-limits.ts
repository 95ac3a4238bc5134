import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { readPipelineLimits } from '../../shared/limits-tracking/pipeline-limits';

export const handler = httpHandler('getPipelineLimits', {}, async ({ auth }) =>
  ok(await readPipelineLimits(auth.hubId)),
);
