import { batchCreateAssociations } from '../../shared/associations/batch-associations';
import { httpHandler } from '../../shared/http/http-handler';
import { requireFromTypeScope } from './require-from-scope';
import { created, multiStatus } from '../../shared/http/responses';
import { batchPairsBody, labelsPath } from './association.schema';

export const handler = httpHandler(
  'batchCreateAssociations',
  { path: labelsPath, body: batchPairsBody },
  async ({ path, body, auth, deadlineMs }) => {
    requireFromTypeScope(auth, path.fromObjectType, 'fromObjectType', 'write');
    const result = await batchCreateAssociations(auth, path.fromObjectType, path.toObjectType, body.inputs, {
      functionDeadlineMs: deadlineMs,
    });
    return result.numErrors ? multiStatus(result) : created(result);
  },
);
