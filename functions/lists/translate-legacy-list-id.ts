import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { translateLegacyListId } from '../../shared/lists/legacy-list-ids';
import { legacyListIdQuery } from './list.schema';

export const handler = httpHandler('translateLegacyListId', { query: legacyListIdQuery }, async ({ query, auth }) =>
  ok(await translateLegacyListId(auth.hubId, query.legacyListId)),
);
