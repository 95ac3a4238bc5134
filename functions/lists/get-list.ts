import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { getList } from '../../shared/lists/read-lists';
import { includeFiltersQuery, listIdPath } from './list.schema';

export const handler = httpHandler(
  'getList',
  { path: listIdPath, query: includeFiltersQuery },
  async ({ path, query, auth }) =>
    ok({ list: await getList(auth.hubId, path.listId, { includeFilters: query.includeFilters === true }) }),
);
