import { listAssociationLabels } from '../../shared/association-types/association-labels';
import { httpHandler } from '../../shared/http/http-handler';
import { requireLabelScope } from './require-from-scope';
import { ok } from '../../shared/http/responses';
import { labelsPath } from './association.schema';

/** On the SDK's /crm/v4/associations/... path and the published spec's /crm/associations/v4/... alias. */
export const handler = httpHandler('listAssociationLabels', { path: labelsPath }, async ({ path, auth }) => {
  requireLabelScope(auth, path.fromObjectType, 'read');
  return ok({ results: await listAssociationLabels(auth.hubId, path.fromObjectType, path.toObjectType) });
});
