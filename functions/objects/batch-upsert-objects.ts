import { batchUpsertRecords } from '../../shared/records/batch-records';
import { httpHandler } from '../../shared/http/http-handler';
import { multiStatus, ok } from '../../shared/http/responses';
import { batchUpdateBody } from './batch.schema';
import { objectTypePath } from './object.schema';
import { resolveObjectType } from './resolve-object-type';

export const handler = httpHandler(
  'batchUpsertObjects',
  { path: objectTypePath, body: batchUpdateBody },
  async ({ path, body, auth }) => {
    const type = resolveObjectType(auth, path.objectType, 'write');
    const result = await batchUpsertRecords(auth, type, body);
    return result.numErrors ? multiStatus(result) : ok(result);
  },
);
