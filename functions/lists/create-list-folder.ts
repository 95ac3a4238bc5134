import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { createListFolder } from '../../shared/lists/list-folders';
import { createFolderBody } from './list-folder.schema';

export const handler = httpHandler('createListFolder', { body: createFolderBody }, async ({ body, auth }) =>
  ok({ folder: await createListFolder(auth, body) }),
);
