import { batchArchiveAssociationLabels } from '../../shared/associations/batch-associations';
import { httpHandler } from '../../shared/http/http-handler';
import { noContent } from '../../shared/http/responses';
import { batchPairsBody, labelsPath } from './association.schema';
import { writePairBatch } from './pair-batch-request';

export const handler = httpHandler(
  'batchArchiveAssociationLabels',
  { path: labelsPath, body: batchPairsBody },
  (request) => writePairBatch(request, batchArchiveAssociationLabels).then(noContent),
);
