import { batchCreateV3Associations } from '../../shared/associations/v3-associations';
import { httpHandler } from '../../shared/http/http-handler';
import { created } from '../../shared/http/responses';
import { batchV3PairsBody, labelsPath } from './association.schema';
import { pairBatchAnswer, writePairBatch } from './pair-batch-request';

export const handler = httpHandler(
  'batchCreateV3Associations',
  { path: labelsPath, body: batchV3PairsBody },
  async (request) => pairBatchAnswer(await writePairBatch(request, batchCreateV3Associations), created),
);
