import { batchAssociateDefault } from '../../shared/associations/batch-associations';
import { httpHandler } from '../../shared/http/http-handler';
import { requireFromTypeScope } from './require-from-scope';
import { ok } from '../../shared/http/responses';
import { batchDefaultPairsBody, labelsPath } from './association.schema';

// The SDK accepts only 200 here, so per-input errors travel in the body's `errors` with a 200.
export const handler = httpHandler(
  'batchAssociateDefault',
  { path: labelsPath, body: batchDefaultPairsBody },
  async ({ path, body, auth, deadlineMs }) => {
    requireFromTypeScope(auth, path.fromObjectType, 'fromObjectType', 'write');
    return ok(
      await batchAssociateDefault(auth, path.fromObjectType, path.toObjectType, body.inputs, {
        functionDeadlineMs: deadlineMs,
      }),
    );
  },
);
