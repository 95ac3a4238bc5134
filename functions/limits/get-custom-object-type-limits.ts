import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { readCustomObjectLimits } from '../../shared/limits-tracking/custom-object-limits';

export const handler = httpHandler('getCustomObjectTypeLimits', {}, async ({ auth }) =>
  ok(await readCustomObjectLimits(auth.hubId)),
);
