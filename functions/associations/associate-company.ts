import '../../shared/http/path-object-types';
import { associateCompany } from '../../shared/associations/company-associations';
import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { companyAssociationPath } from './association.schema';

export const handler = httpHandler('associateCompany', { path: companyAssociationPath }, async ({ path, auth }) =>
  ok(await associateCompany(auth, path.companyId, path.toObjectType, path.toObjectId, path.associationTypeId)),
);
