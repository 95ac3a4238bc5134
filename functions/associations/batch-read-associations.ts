import { batchReadAssociations } from '../../shared/associations/batch-associations';
import { httpHandler } from '../../shared/http/http-handler';
import { requireFromTypeScope } from './require-from-scope';
import { multiStatus, ok } from '../../shared/http/responses';
import { batchReadAssociationsBody, labelsPath } from './association.schema';

export const handler = httpHandler(
  'batchReadAssociations',
  { path: labelsPath, body: batchReadAssociationsBody },
  async ({ path, body, auth }) => {
    requireFromTypeScope(auth, path.fromObjectType, 'fromObjectType', 'read');
    const result = await batchReadAssociations(auth.hubId, path.fromObjectType, path.toObjectType, body.inputs);
    return result.numErrors ? multiStatus(result) : ok(result);
  },
);
