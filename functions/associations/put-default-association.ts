import { putDefaultAssociation } from '../../shared/associations/record-associations';
import { httpHandler } from '../../shared/http/http-handler';
import { requireFromTypeScope } from './require-from-scope';
import { ok } from '../../shared/http/responses';
import { recordPairPath } from './association.schema';

export const handler = httpHandler('putDefaultAssociation', { path: recordPairPath }, async ({ path, auth }) => {
  requireFromTypeScope(auth, path.objectType, 'objectType', 'write');
  return ok(await putDefaultAssociation(auth, path.objectType, path.objectId, path.toObjectType, path.toObjectId));
});
