import { batchUpdateCompanies } from '../../shared/records/batch-records';
import { httpHandler } from '../../shared/http/http-handler';
import { multiStatus, ok } from '../../shared/http/responses';
import { batchUpdateBody } from './batch.schema';
import { objectTypePath } from './object.schema';
import { resolveObjectType } from './resolve-object-type';

export const handler = httpHandler(
  'batchUpdateObjects',
  { path: objectTypePath, body: batchUpdateBody },
  async ({ path, body, auth }) => {
    resolveObjectType(auth, path.objectType, 'write');
    const result = await batchUpdateCompanies(auth, body);
    return result.numErrors ? multiStatus(result) : ok(result);
  },
);
