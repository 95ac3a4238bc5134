import { archiveRecord } from '../../shared/records/archive-record';
import { recordNotFound } from '../../shared/records/read-records';
import { httpHandler } from '../../shared/http/http-handler';
import { noContent } from '../../shared/http/responses';
import { objectIdPath } from './object.schema';
import { resolveObjectType } from './resolve-object-type';

export const handler = httpHandler('archiveObject', { path: objectIdPath }, async ({ path, auth }) => {
  const type = resolveObjectType(auth, path.objectType, 'write');
  if (!(await archiveRecord(type, auth.hubId, path.objectId))) throw recordNotFound(path.objectId);
  return noContent();
});
