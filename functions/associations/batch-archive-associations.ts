import { batchArchiveAssociations } from '../../shared/associations/batch-associations';
import { httpHandler } from '../../shared/http/http-handler';
import { requireFromTypeScope } from './require-from-scope';
import { noContent } from '../../shared/http/responses';
import { batchArchivePairsBody, labelsPath } from './association.schema';

export const handler = httpHandler(
  'batchArchiveAssociations',
  { path: labelsPath, body: batchArchivePairsBody },
  async ({ path, body, auth, deadlineMs }) => {
    requireFromTypeScope(auth, path.fromObjectType, 'fromObjectType', 'write');
    await batchArchiveAssociations(auth, path.fromObjectType, path.toObjectType, body.inputs, {
      functionDeadlineMs: deadlineMs,
    });
    return noContent();
  },
);
