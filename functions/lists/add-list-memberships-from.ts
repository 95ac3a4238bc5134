import { httpHandler } from '../../shared/http/http-handler';
import { noContent } from '../../shared/http/responses';
import { addMembershipsFrom } from '../../shared/lists/change-memberships';
import { sourceListPath } from './list.schema';

export const handler = httpHandler('addListMembershipsFrom', { path: sourceListPath }, async ({ path, auth }) => {
  await addMembershipsFrom(auth.hubId, path.listId, path.sourceListId);
  return noContent();
});
