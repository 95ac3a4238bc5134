import { batchArchiveAssociations } from '../../shared/associations/batch-associations';
import { httpHandler } from '../../shared/http/http-handler';
import { noContent } from '../../shared/http/responses';
import { batchArchivePairsBody, labelsPath } from './association.schema';

export const handler = httpHandler(
  'batchArchiveAssociations',
  { path: labelsPath, body: batchArchivePairsBody },
  async ({ path, body, auth, deadlineMs }) => {
    await batchArchiveAssociations(auth, path.fromObjectType, path.toObjectType, body.inputs, {
      functionDeadlineMs: deadlineMs,
    });
    return noContent();
  },
);
