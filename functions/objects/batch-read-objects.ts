import { batchReadRecords } from '../../shared/records/batch-records';
import { httpHandler } from '../../shared/http/http-handler';
import { multiStatus, ok } from '../../shared/http/responses';
import { batchReadBody, batchReadQuery } from './batch.schema';
import { objectTypePath } from './object.schema';
import { resolveObjectType } from './resolve-object-type';

export const handler = httpHandler(
  'batchReadObjects',
  { path: objectTypePath, body: batchReadBody, query: batchReadQuery },
  async ({ path, body, query, auth }) => {
    const type = resolveObjectType(auth, path.objectType, 'read');
    const result = await batchReadRecords(type, auth.hubId, body, query.archived ?? false);
    return result.numErrors ? multiStatus(result) : ok(result);
  },
);
