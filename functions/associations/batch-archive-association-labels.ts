import { batchArchiveAssociationLabels } from '../../shared/associations/batch-associations';
import { httpHandler } from '../../shared/http/http-handler';
import { noContent } from '../../shared/http/responses';
import { batchPairsBody, labelsPath } from './association.schema';

export const handler = httpHandler(
  'batchArchiveAssociationLabels',
  { path: labelsPath, body: batchPairsBody },
  async ({ path, body, auth, deadlineMs }) => {
    await batchArchiveAssociationLabels(auth, path.fromObjectType, path.toObjectType, body.inputs, {
      functionDeadlineMs: deadlineMs,
    });
    return noContent();
  },
);
