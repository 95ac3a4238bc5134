import { httpHandler } from '../../shared/http/http-handler';
import { noContent } from '../../shared/http/responses';
import { restoreAccountList } from '../../shared/lists/manage-lists';
import { listIdPath } from './list.schema';

export const handler = httpHandler('restoreList', { path: listIdPath }, async ({ path, auth }) => {
  await restoreAccountList(auth, path.listId);
  return noContent();
});
