import { mergeRecords } from '../../shared/records/merge-records';
import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { mergeObjectsBody } from './merge.schema';
import { objectTypePath } from './object.schema';
import { resolveMergeableType } from './resolve-object-type';

export const handler = httpHandler(
  'mergeObjects',
  { path: objectTypePath, body: mergeObjectsBody },
  async ({ path, body, auth }) => {
    const type = resolveMergeableType(auth, path.objectType);
    return ok(await mergeRecords(auth, type, body));
  },
);
