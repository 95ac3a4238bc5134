import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { listAllLists } from '../../shared/lists/read-lists';
import { listAllListsBody } from './list.schema';

export const handler = httpHandler('listAllLists', { body: listAllListsBody }, async ({ body, auth }) =>
  ok(await listAllLists(auth.hubId, body)),
);
