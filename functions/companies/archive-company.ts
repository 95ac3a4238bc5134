import { archiveCompany } from '../../shared/companies/archive-company';
import { companyNotFound } from '../../shared/companies/read-companies';
import { httpHandler } from '../../shared/http/http-handler';
import { noContent } from '../../shared/http/responses';
import { companyIdPath } from './company.schema';

export const handler = httpHandler('archiveCompany', { path: companyIdPath }, async ({ path, auth }) => {
  if (!(await archiveCompany(auth.hubId, path.companyId))) throw companyNotFound(path.companyId);
  return noContent();
});
