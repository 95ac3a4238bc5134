import { batchCreateCompanies } from '../../shared/companies/batch-companies';
import { httpHandler } from '../../shared/http/http-handler';
import { created, multiStatus } from '../../shared/http/responses';
import { batchCreateBody } from './batch.schema';

export const handler = httpHandler('batchCreateCompanies', { body: batchCreateBody }, async ({ body, auth }) => {
  const result = await batchCreateCompanies(auth, body);
  return result.numErrors ? multiStatus(result) : created(result);
});
