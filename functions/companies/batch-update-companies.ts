import { batchUpdateCompanies } from '../../shared/companies/batch-companies';
import { httpHandler } from '../../shared/http/http-handler';
import { multiStatus, ok } from '../../shared/http/responses';
import { batchUpdateBody } from './batch.schema';

export const handler = httpHandler('batchUpdateCompanies', { body: batchUpdateBody }, async ({ body, auth }) => {
  const result = await batchUpdateCompanies(auth, body);
  return result.numErrors ? multiStatus(result) : ok(result);
});
