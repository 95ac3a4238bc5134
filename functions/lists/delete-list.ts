import { httpHandler } from '../../shared/http/http-handler';
import { noContent } from '../../shared/http/responses';
import { deleteAccountList } from '../../shared/lists/manage-lists';
import { listIdPath } from './list.schema';

export const handler = httpHandler('deleteList', { path: listIdPath }, async ({ path, auth }) => {
  await deleteAccountList(auth, path.listId);
  return noContent();
});
