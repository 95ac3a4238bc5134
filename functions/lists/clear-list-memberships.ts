import { httpHandler } from '../../shared/http/http-handler';
import { noContent } from '../../shared/http/responses';
import { clearMemberships } from '../../shared/lists/change-memberships';
import { listIdPath } from './list.schema';

export const handler = httpHandler('clearListMemberships', { path: listIdPath }, async ({ path, auth }) => {
  await clearMemberships(auth.hubId, path.listId);
  return noContent();
});
