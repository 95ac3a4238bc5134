import { httpHandler } from '../../shared/http/http-handler';
import { noContent } from '../../shared/http/responses';
import { cancelListConversion } from '../../shared/lists/list-conversion';
import { listIdPath } from './list.schema';

export const handler = httpHandler('cancelListConversion', { path: listIdPath }, async ({ path, auth }) => {
  await cancelListConversion(auth.hubId, path.listId);
  return noContent();
});
