import { batchReadV3Associations } from '../../shared/associations/v3-associations';
import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { batchReadAssociationsBody, labelsPath } from './association.schema';
import { pairBatchAnswer, readPairBatch } from './pair-batch-request';

export const handler = httpHandler(
  'batchReadV3Associations',
  { path: labelsPath, body: batchReadAssociationsBody },
  async (request) => pairBatchAnswer(await readPairBatch(request, batchReadV3Associations), ok),
);
