import { batchUpdateRecords } from '../../shared/records/batch-records';
import { writeRulesFor } from '../../shared/records/write-validation';
import { httpHandler } from '../../shared/http/http-handler';
import { multiStatus, ok } from '../../shared/http/responses';
import { batchUpdateBody } from './batch.schema';
import { objectTypePath } from './object.schema';
import { resolveObjectType } from './resolve-object-type';

export const handler = httpHandler(
  'batchUpdateObjects',
  { path: objectTypePath, body: batchUpdateBody },
  async ({ path, body, auth, version }) => {
    const type = resolveObjectType(auth, path.objectType, 'write');
    const result = await batchUpdateRecords(auth, type, body, await writeRulesFor(type, auth.hubId, version));
    return result.numErrors ? multiStatus(result) : ok(result);
  },
);
