import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { readAssociationLabelLimits } from '../../shared/limits-tracking/association-limits';
import { labelLimitsQuery } from './limits.schema';

export const handler = httpHandler('getAssociationLabelLimits', { query: labelLimitsQuery }, async ({ auth, query }) =>
  ok(await readAssociationLabelLimits(auth.hubId, query ?? {})),
);
