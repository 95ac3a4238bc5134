import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { renameListFolder } from '../../shared/lists/list-folders';
import { folderIdPath, renameFolderQuery } from './list-folder.schema';

export const handler = httpHandler(
  'renameListFolder',
  { path: folderIdPath, query: renameFolderQuery },
  async ({ path, query, auth }) => ok({ folder: await renameListFolder(auth, path.folderId, query.newFolderName) }),
);
