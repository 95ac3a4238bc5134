import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { readCustomPropertyLimits } from '../../shared/limits-tracking/property-limits';

export const handler = httpHandler('getCustomPropertyLimits', {}, async ({ auth }) =>
  ok(await readCustomPropertyLimits(auth.hubId)),
);
