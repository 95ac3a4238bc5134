import { batchCreateRecords } from '../../shared/records/batch-records';
import { writeRulesFor } from '../../shared/records/write-validation';
import { httpHandler } from '../../shared/http/http-handler';
import { created, multiStatus } from '../../shared/http/responses';
import { batchCreateBody } from './batch.schema';
import { objectTypePath } from './object.schema';
import { resolveObjectType } from './resolve-object-type';

export const handler = httpHandler(
  'batchCreateObjects',
  { path: objectTypePath, body: batchCreateBody },
  async ({ path, body, auth, deadlineMs, version }) => {
    const type = resolveObjectType(auth, path.objectType, 'write');
    const rules = await writeRulesFor(type, auth.hubId, version);
    const result = await batchCreateRecords(auth, type, body, deadlineMs, undefined, rules);
    return result.numErrors ? multiStatus(result) : created(result);
  },
);
