import { listV3AssociationTypes } from '../../shared/associations/v3-associations';
import { httpHandler } from '../../shared/http/http-handler';
import { requireFromTypeScope } from './require-from-scope';
import { ok } from '../../shared/http/responses';
import { labelsPath } from './association.schema';

export const handler = httpHandler('listV3AssociationTypes', { path: labelsPath }, async ({ path, auth }) => {
  requireFromTypeScope(auth, path.fromObjectType, 'fromObjectType', 'read');
  return ok({ results: await listV3AssociationTypes(auth.hubId, path.fromObjectType, path.toObjectType) });
});
