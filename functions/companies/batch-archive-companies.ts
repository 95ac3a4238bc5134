import { batchArchiveCompanies } from '../../shared/companies/batch-companies';
import { httpHandler } from '../../shared/http/http-handler';
import { noContent } from '../../shared/http/responses';
import { batchArchiveBody } from './batch.schema';

export const handler = httpHandler('batchArchiveCompanies', { body: batchArchiveBody }, async ({ body, auth }) => {
  await batchArchiveCompanies(auth.hubId, body);
  return noContent();
});
