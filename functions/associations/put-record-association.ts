import { putRecordAssociation } from '../../shared/associations/record-associations';
import { httpHandler } from '../../shared/http/http-handler';
import { requireFromTypeScope } from './require-from-scope';
import { created } from '../../shared/http/responses';
import { associationSpecsBody, recordPairPath } from './association.schema';

export const handler = httpHandler(
  'putRecordAssociation',
  { path: recordPairPath, body: associationSpecsBody },
  async ({ path, body, auth }) => {
    requireFromTypeScope(auth, path.objectType, 'objectType', 'write');
    return created(
      await putRecordAssociation(auth, path.objectType, path.objectId, path.toObjectType, path.toObjectId, body),
    );
  },
);
