import { batchReadAssociations } from '../../shared/associations/batch-associations';
import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { batchReadAssociationsBody, labelsPath } from './association.schema';
import { pairBatchAnswer, readPairBatch } from './pair-batch-request';

export const handler = httpHandler(
  'batchReadAssociations',
  { path: labelsPath, body: batchReadAssociationsBody },
  async (request) => pairBatchAnswer(await readPairBatch(request, batchReadAssociations), ok),
);
