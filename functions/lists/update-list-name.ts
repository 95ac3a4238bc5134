import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { renameAccountList } from '../../shared/lists/manage-lists';
import { listIdPath, renameQuery } from './list.schema';

export const handler = httpHandler(
  'updateListName',
  { path: listIdPath, query: renameQuery },
  async ({ path, query, auth }) =>
    ok({
      updatedList: await renameAccountList(auth, path.listId, query.listName, {
        includeFilters: query.includeFilters === true,
      }),
    }),
);
