import { getCompany } from '../../shared/companies/read-companies';
import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { companyIdPath, readCompanyQuery } from './company.schema';

export const handler = httpHandler(
  'getCompany',
  { path: companyIdPath, query: readCompanyQuery },
  async ({ path, query, auth }) => ok(await getCompany(auth.hubId, path.companyId, query)),
);
