import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { getListByName } from '../../shared/lists/read-lists';
import { includeFiltersQuery, listNamePath } from './list.schema';

export const handler = httpHandler(
  'getListByName',
  { path: listNamePath, query: includeFiltersQuery },
  async ({ path, query, auth }) =>
    ok({
      list: await getListByName(auth.hubId, path.objectTypeId, path.listName, {
        includeFilters: query.includeFilters === true,
      }),
    }),
);
