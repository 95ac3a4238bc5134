import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { searchCompanies } from '../../shared/search/search-companies';
import { searchBody } from './search.schema';

export const handler = httpHandler('searchCompanies', { body: searchBody }, async ({ body, auth }) =>
  ok(await searchCompanies(auth.hubId, body ?? {})),
);
