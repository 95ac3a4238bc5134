import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { createList } from '../../shared/lists/manage-lists';
import { createListBody } from './list.schema';

export const handler = httpHandler('createList', { body: createListBody }, async ({ body, auth }) =>
  ok({ list: await createList(auth, body) }),
);
