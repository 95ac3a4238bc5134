import { batchArchiveV3Associations } from '../../shared/associations/v3-associations';
import { httpHandler } from '../../shared/http/http-handler';
import { noContent } from '../../shared/http/responses';
import { batchV3PairsBody, labelsPath } from './association.schema';
import { writePairBatch } from './pair-batch-request';

export const handler = httpHandler(
  'batchArchiveV3Associations',
  { path: labelsPath, body: batchV3PairsBody },
  (request) => writePairBatch(request, batchArchiveV3Associations).then(noContent),
);
