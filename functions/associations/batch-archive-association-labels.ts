import { batchArchiveAssociationLabels } from '../../shared/associations/batch-associations';
import { httpHandler } from '../../shared/http/http-handler';
import { batchPairsBody, labelsPath } from './association.schema';
import { archiveAnswer, writePairBatch } from './pair-batch-request';

export const handler = httpHandler(
  'batchArchiveAssociationLabels',
  { path: labelsPath, body: batchPairsBody },
  async (request) => {
    const startedAt = new Date();
    await writePairBatch(request, batchArchiveAssociationLabels);
    return archiveAnswer(request.version, startedAt);
  },
);
