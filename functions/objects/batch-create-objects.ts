import { batchCreateRecords } from '../../shared/records/batch-records';
import { httpHandler } from '../../shared/http/http-handler';
import { created, multiStatus } from '../../shared/http/responses';
import { batchCreateBody } from './batch.schema';
import { objectTypePath } from './object.schema';
import { resolveObjectType } from './resolve-object-type';

export const handler = httpHandler(
  'batchCreateObjects',
  { path: objectTypePath, body: batchCreateBody },
  async ({ path, body, auth, deadlineMs }) => {
    const type = resolveObjectType(auth, path.objectType, 'write');
    const result = await batchCreateRecords(auth, type, body, deadlineMs);
    return result.numErrors ? multiStatus(result) : created(result);
  },
);
