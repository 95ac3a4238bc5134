import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { getListsByIds } from '../../shared/lists/read-lists';
import { listIdsQuery } from './list.schema';

// Repeated `listIds` parameters arrive joined with commas (API Gateway's queryStringParameters).
export const handler = httpHandler('getLists', { query: listIdsQuery }, async ({ query, auth }) =>
  ok({
    lists: await getListsByIds(
      auth.hubId,
      (query.listIds ?? '').split(',').filter((id) => id !== ''),
      { includeFilters: query.includeFilters === true },
    ),
  }),
);
