import { updateRecord } from '../../shared/records/update-record';
import { writeRulesFor } from '../../shared/records/write-validation';
import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { idPropertyQuery, objectIdPath, updateObjectBody } from './object.schema';
import { resolveObjectType } from './resolve-object-type';

export const handler = httpHandler(
  'updateObject',
  { path: objectIdPath, query: idPropertyQuery, body: updateObjectBody },
  async ({ path, query, body, auth, version }) => {
    const type = resolveObjectType(auth, path.objectType, 'write');
    const rules = await writeRulesFor(type, auth.hubId, version);
    return ok(await updateRecord(auth, type, path.objectId, body, query.idProperty, rules));
  },
);
