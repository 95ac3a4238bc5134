import { createCompany } from '../../shared/companies/create-company';
import { httpHandler } from '../../shared/http/http-handler';
import { created } from '../../shared/http/responses';
import { createCompanyBody } from './company.schema';

export const handler = httpHandler('createCompany', { body: createCompanyBody }, async ({ body, auth, baseUrl }) => {
  const company = await createCompany(auth, body);
  return created(company, { location: `${baseUrl}/crm/v3/objects/companies/${company.id}` });
});
