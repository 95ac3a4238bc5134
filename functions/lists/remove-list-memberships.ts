import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { changeMemberships } from '../../shared/lists/change-memberships';
import { listIdPath, recordIdsBody } from './list.schema';

export const handler = httpHandler(
  'removeListMemberships',
  { path: listIdPath, body: recordIdsBody },
  async ({ path, body, auth }) => ok(await changeMemberships(auth.hubId, path.listId, { add: [], remove: body })),
);
