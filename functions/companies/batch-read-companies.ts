import { batchReadCompanies } from '../../shared/companies/batch-companies';
import { httpHandler } from '../../shared/http/http-handler';
import { multiStatus, ok } from '../../shared/http/responses';
import { batchReadBody, batchReadQuery } from './batch.schema';

export const handler = httpHandler(
  'batchReadCompanies',
  { body: batchReadBody, query: batchReadQuery },
  async ({ body, query, auth }) => {
    const result = await batchReadCompanies(auth.hubId, body, query.archived ?? false);
    return result.numErrors ? multiStatus(result) : ok(result);
  },
);
