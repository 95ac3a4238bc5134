import { disassociateRecord } from '../../shared/associations/v3-record-associations';
import { requireObjectType } from '../../shared/objects/object-types';
import { httpHandler } from '../../shared/http/http-handler';
import { noContent } from '../../shared/http/responses';
import { companyAssociationPath } from './association.schema';

const companies = requireObjectType('companies');

export const handler = httpHandler('disassociateCompany', { path: companyAssociationPath }, async ({ path, auth }) => {
  await disassociateRecord(auth, companies, path.companyId, path.toObjectType, path.toObjectId, path.associationTypeId);
  return noContent();
});
