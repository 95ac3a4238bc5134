import { archiveCompany } from '../../shared/companies/archive-company';
import { companyNotFound } from '../../shared/companies/read-companies';
import { httpHandler } from '../../shared/http/http-handler';
import { noContent } from '../../shared/http/responses';
import { objectIdPath } from './object.schema';
import { resolveObjectType } from './resolve-object-type';

export const handler = httpHandler('archiveObject', { path: objectIdPath }, async ({ path, auth }) => {
  resolveObjectType(auth, path.objectType, 'write');
  if (!(await archiveCompany(auth.hubId, path.objectId))) throw companyNotFound(path.objectId);
  return noContent();
});
