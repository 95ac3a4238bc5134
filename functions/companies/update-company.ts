import { updateCompany } from '../../shared/companies/update-company';
import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { companyIdPath, idPropertyQuery, updateCompanyBody } from './company.schema';

export const handler = httpHandler(
  'updateCompany',
  { path: companyIdPath, query: idPropertyQuery, body: updateCompanyBody },
  async ({ path, query, body, auth }) => ok(await updateCompany(auth, path.companyId, body, query.idProperty)),
);
