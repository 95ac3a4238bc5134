import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { moveListFolder } from '../../shared/lists/list-folders';
import { moveFolderPath } from './list-folder.schema';

export const handler = httpHandler('moveListFolder', { path: moveFolderPath }, async ({ path, auth }) =>
  ok({ folder: await moveListFolder(auth, path.folderId, path.newParentFolderId) }),
);
