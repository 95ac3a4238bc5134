import { batchCreateAssociations } from '../../shared/associations/batch-associations';
import { httpHandler } from '../../shared/http/http-handler';
import { created, multiStatus } from '../../shared/http/responses';
import { batchPairsBody, labelsPath } from './association.schema';

export const handler = httpHandler(
  'batchCreateAssociations',
  { path: labelsPath, body: batchPairsBody },
  async ({ path, body, auth, deadlineMs }) => {
    const result = await batchCreateAssociations(auth, path.fromObjectType, path.toObjectType, body.inputs, {
      functionDeadlineMs: deadlineMs,
    });
    return result.numErrors ? multiStatus(result) : created(result);
  },
);
