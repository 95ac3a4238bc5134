import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { changeMemberships } from '../../shared/lists/change-memberships';
import { addAndRemoveBody, listIdPath } from './list.schema';

export const handler = httpHandler(
  'addAndRemoveListMemberships',
  { path: listIdPath, body: addAndRemoveBody },
  async ({ path, body, auth }) =>
    ok(await changeMemberships(auth.hubId, path.listId, { add: body.recordIdsToAdd, remove: body.recordIdsToRemove })),
);
