import { batchArchiveAssociations } from '../../shared/associations/batch-associations';
import { httpHandler } from '../../shared/http/http-handler';
import { batchArchivePairsBody, labelsPath } from './association.schema';
import { archiveAnswer, writePairBatch } from './pair-batch-request';

export const handler = httpHandler(
  'batchArchiveAssociations',
  { path: labelsPath, body: batchArchivePairsBody },
  async (request) => {
    const startedAt = new Date();
    await writePairBatch(request, batchArchiveAssociations);
    return archiveAnswer(request.version, startedAt);
  },
);
