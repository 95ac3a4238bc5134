import { httpHandler } from '../../shared/http/http-handler';
import { noContent } from '../../shared/http/responses';
import { deleteListFolder } from '../../shared/lists/list-folders';
import { folderIdPath } from './list-folder.schema';

export const handler = httpHandler('deleteListFolder', { path: folderIdPath }, async ({ path, auth }) => {
  await deleteListFolder(auth, path.folderId);
  return noContent();
});
