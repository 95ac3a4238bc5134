import { listCompanies } from '../../shared/companies/read-companies';
import { httpHandler } from '../../shared/http/http-handler';
import { nextPageLink, ok } from '../../shared/http/responses';
import { listCompaniesQuery } from './company.schema';

export const handler = httpHandler(
  'listCompanies',
  { query: listCompaniesQuery },
  async ({ query, auth, baseUrl, rawQueryString }) =>
    ok(
      await listCompanies(auth.hubId, query, (after) =>
        nextPageLink(baseUrl, '/crm/v3/objects/companies', rawQueryString, after),
      ),
    ),
);
