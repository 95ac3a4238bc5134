import { deleteRecordAssociation } from '../../shared/associations/record-associations';
import { httpHandler } from '../../shared/http/http-handler';
import { requireFromTypeScope } from './require-from-scope';
import { noContent } from '../../shared/http/responses';
import { recordPairPath } from './association.schema';

export const handler = httpHandler('deleteRecordAssociation', { path: recordPairPath }, async ({ path, auth }) => {
  requireFromTypeScope(auth, path.objectType, 'objectType', 'write');
  await deleteRecordAssociation(auth, path.objectType, path.objectId, path.toObjectType, path.toObjectId);
  return noContent();
});
