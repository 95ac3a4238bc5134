import { batchAssociateDefault } from '../../shared/associations/batch-associations';
import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { batchDefaultPairsBody, labelsPath } from './association.schema';
import { writePairBatch } from './pair-batch-request';

// The SDK accepts only 200 here, so per-input errors travel in the body's `errors` with a 200.
export const handler = httpHandler(
  'batchAssociateDefault',
  { path: labelsPath, body: batchDefaultPairsBody },
  async (request) => ok(await writePairBatch(request, batchAssociateDefault)),
);
