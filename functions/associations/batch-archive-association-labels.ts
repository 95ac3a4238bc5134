import { batchArchiveAssociationLabels } from '../../shared/associations/batch-associations';
import { httpHandler } from '../../shared/http/http-handler';
import { requireFromTypeScope } from './require-from-scope';
import { noContent } from '../../shared/http/responses';
import { batchPairsBody, labelsPath } from './association.schema';

export const handler = httpHandler(
  'batchArchiveAssociationLabels',
  { path: labelsPath, body: batchPairsBody },
  async ({ path, body, auth, deadlineMs }) => {
    requireFromTypeScope(auth, path.fromObjectType, 'fromObjectType', 'write');
    await batchArchiveAssociationLabels(auth, path.fromObjectType, path.toObjectType, body.inputs, {
      functionDeadlineMs: deadlineMs,
    });
    return noContent();
  },
);
