import { listAssociationLimits } from '../../shared/association-limits/association-limit-configurations';
import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { requireLabelScope } from '../associations/require-from-scope';
import { limitsPairPath } from './association-limits.schema';

export const handler = httpHandler('listAssociationLimits', { path: limitsPairPath }, async ({ path, auth }) => {
  requireLabelScope(auth, path.fromObjectType, 'read');
  return ok({ results: await listAssociationLimits(auth.hubId, path.fromObjectType, path.toObjectType) });
});
