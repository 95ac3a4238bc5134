import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { searchRecords } from '../../shared/search/search-records';
import { objectTypePath } from './object.schema';
import { resolveObjectType } from './resolve-object-type';
import { searchBody } from './search.schema';

export const handler = httpHandler(
  'searchObjects',
  { path: objectTypePath, body: searchBody },
  async ({ path, body, auth }) => {
    const type = resolveObjectType(auth, path.objectType, 'read');
    return ok(await searchRecords(type, auth.hubId, body ?? {}));
  },
);
