import { listCompanies } from '../../shared/companies/read-companies';
import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { listCompaniesQuery } from './company.schema';

/** The next-page link repeats the request's query with the new cursor, as HubSpot's does. */
function nextLink(baseUrl: string, rawQueryString: string, after: string): string {
  const kept = rawQueryString.split('&').filter((pair) => pair !== '' && pair !== 'after' && !pair.startsWith('after='));
  return `${baseUrl}/crm/v3/objects/companies?${[...kept, `after=${encodeURIComponent(after)}`].join('&')}`;
}

export const handler = httpHandler('listCompanies', { query: listCompaniesQuery }, async ({ query, auth, baseUrl, rawQueryString }) =>
  ok(await listCompanies(auth.hubId, query, (after) => nextLink(baseUrl, rawQueryString, after))));
