import { batchArchiveAssociations } from '../../shared/associations/batch-associations';
import { httpHandler } from '../../shared/http/http-handler';
import { noContent } from '../../shared/http/responses';
import { batchArchivePairsBody, labelsPath } from './association.schema';
import { writePairBatch } from './pair-batch-request';

export const handler = httpHandler(
  'batchArchiveAssociations',
  { path: labelsPath, body: batchArchivePairsBody },
  (request) => writePairBatch(request, batchArchiveAssociations).then(noContent),
);
