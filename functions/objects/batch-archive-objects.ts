import { batchArchiveRecords } from '../../shared/records/batch-records';
import { httpHandler } from '../../shared/http/http-handler';
import { noContent } from '../../shared/http/responses';
import { batchArchiveBody } from './batch.schema';
import { objectTypePath } from './object.schema';
import { resolveObjectType } from './resolve-object-type';

export const handler = httpHandler(
  'batchArchiveObjects',
  { path: objectTypePath, body: batchArchiveBody },
  async ({ path, body, auth }) => {
    const type = resolveObjectType(auth, path.objectType, 'write');
    await batchArchiveRecords(type, auth.hubId, body);
    return noContent();
  },
);
