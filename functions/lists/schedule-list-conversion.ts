import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { scheduleListConversion } from '../../shared/lists/list-conversion';
import { conversionTimeBody, listIdPath } from './list.schema';

export const handler = httpHandler(
  'scheduleListConversion',
  { path: listIdPath, body: conversionTimeBody },
  async ({ path, body, auth }) => ok(await scheduleListConversion(auth.hubId, path.listId, body)),
);
