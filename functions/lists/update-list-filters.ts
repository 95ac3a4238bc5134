import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { updateListFilters } from '../../shared/lists/manage-lists';
import { filtersQuery, listIdPath, updateFiltersBody } from './list.schema';

export const handler = httpHandler(
  'updateListFilters',
  { path: listIdPath, query: filtersQuery, body: updateFiltersBody },
  async ({ path, body, auth }) => ok({ updatedList: await updateListFilters(auth, path.listId, body.filterBranch) }),
);
