import { batchCreateAssociations } from '../../shared/associations/batch-associations';
import { httpHandler } from '../../shared/http/http-handler';
import { created } from '../../shared/http/responses';
import { batchPairsBody, labelsPath } from './association.schema';
import { pairBatchAnswer, writePairBatch } from './pair-batch-request';

export const handler = httpHandler(
  'batchCreateAssociations',
  { path: labelsPath, body: batchPairsBody },
  async (request) => pairBatchAnswer(await writePairBatch(request, batchCreateAssociations), created),
);
