import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { translateLegacyListIds } from '../../shared/lists/legacy-list-ids';
import { legacyListIdsBody } from './list.schema';

export const handler = httpHandler('translateLegacyListIds', { body: legacyListIdsBody }, async ({ body, auth }) =>
  ok(await translateLegacyListIds(auth.hubId, body)),
);
