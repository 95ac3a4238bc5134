import { getRecord } from '../../shared/records/read-records';
import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { objectIdPath, readObjectQuery } from './object.schema';
import { resolveObjectType } from './resolve-object-type';

export const handler = httpHandler(
  'getObject',
  { path: objectIdPath, query: readObjectQuery },
  async ({ path, query, auth }) => {
    const type = resolveObjectType(auth, path.objectType, 'read');
    return ok(await getRecord(type, auth.hubId, path.objectId, query));
  },
);
