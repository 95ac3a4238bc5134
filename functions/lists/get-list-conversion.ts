import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { getListConversion } from '../../shared/lists/list-conversion';
import { listIdPath } from './list.schema';

export const handler = httpHandler('getListConversion', { path: listIdPath }, async ({ path, auth }) =>
  ok(await getListConversion(auth.hubId, path.listId)),
);
