import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { readCalculatedPropertyLimits } from '../../shared/limits-tracking/property-limits';

export const handler = httpHandler('getCalculatedPropertyLimits', {}, async ({ auth }) =>
  ok(await readCalculatedPropertyLimits(auth.hubId)),
);
