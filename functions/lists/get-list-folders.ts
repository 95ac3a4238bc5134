import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { getListFolder } from '../../shared/lists/list-folders';
import { folderQuery } from './list-folder.schema';

export const handler = httpHandler('getListFolders', { query: folderQuery }, async ({ query, auth }) =>
  ok({ folder: await getListFolder(auth.hubId, query.folderId) }),
);
