import { associateRecord } from '../../shared/associations/v3-record-associations';
import { requireObjectType } from '../../shared/objects/object-types';
import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { companyAssociationPath } from './association.schema';

const companies = requireObjectType('companies');

export const handler = httpHandler('associateCompany', { path: companyAssociationPath }, async ({ path, auth }) =>
  ok(
    await associateRecord(auth, companies, path.companyId, path.toObjectType, path.toObjectId, path.associationTypeId),
  ),
);
