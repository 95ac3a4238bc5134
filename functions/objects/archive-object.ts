import { archiveCompany } from '../../shared/records/archive-record';
import { companyNotFound } from '../../shared/records/read-records';
import { httpHandler } from '../../shared/http/http-handler';
import { noContent } from '../../shared/http/responses';
import { objectIdPath } from './object.schema';
import { resolveObjectType } from './resolve-object-type';

export const handler = httpHandler('archiveObject', { path: objectIdPath }, async ({ path, auth }) => {
  resolveObjectType(auth, path.objectType, 'write');
  if (!(await archiveCompany(auth.hubId, path.objectId))) throw companyNotFound(path.objectId);
  return noContent();
});
