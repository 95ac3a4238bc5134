import '../../shared/http/path-object-types';
import { disassociateCompany } from '../../shared/associations/company-associations';
import { httpHandler } from '../../shared/http/http-handler';
import { noContent } from '../../shared/http/responses';
import { companyAssociationPath } from './association.schema';

export const handler = httpHandler('disassociateCompany', { path: companyAssociationPath }, async ({ path, auth }) => {
  await disassociateCompany(auth, path.companyId, path.toObjectType, path.toObjectId, path.associationTypeId);
  return noContent();
});
