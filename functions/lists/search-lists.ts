import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { searchLists } from '../../shared/lists/read-lists';
import { searchListsBody } from './list.schema';

export const handler = httpHandler('searchLists', { body: searchListsBody }, async ({ body, auth }) =>
  ok(await searchLists(auth.hubId, body)),
);
