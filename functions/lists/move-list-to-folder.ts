import { httpHandler } from '../../shared/http/http-handler';
import { noContent } from '../../shared/http/responses';
import { moveListToFolder } from '../../shared/lists/list-folders';
import { moveListBody } from './list-folder.schema';

export const handler = httpHandler('moveListToFolder', { body: moveListBody }, async ({ body, auth }) => {
  await moveListToFolder(auth, body.listId, body.newFolderId);
  return noContent();
});
