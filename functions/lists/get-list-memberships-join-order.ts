import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { listMembershipsPage } from '../../shared/lists/read-memberships';
import { listIdPath, pageQuery } from './list.schema';

export const handler = httpHandler(
  'getListMembershipsJoinOrder',
  { path: listIdPath, query: pageQuery },
  async ({ path, query, auth }) => ok(await listMembershipsPage(auth.hubId, path.listId, 'joined', query)),
);
