import { listV3RecordAssociations } from '../../shared/associations/v3-record-associations';
import { requireObjectType } from '../../shared/objects/object-types';
import { baseUrlOf } from '../../shared/http/base-url';
import { httpHandler } from '../../shared/http/http-handler';
import { nextPageLink, ok } from '../../shared/http/responses';
import { associationPageQuery, companyAssociationsPath } from './association.schema';

const companies = requireObjectType('companies');

export const handler = httpHandler(
  'listCompanyAssociations',
  { path: companyAssociationsPath, query: associationPageQuery },
  async ({ path, query, auth, requestContext, rawQueryString }) => {
    const self = `/crm/v3/objects/companies/${encodeURIComponent(path.companyId)}/associations/${encodeURIComponent(path.toObjectType)}`;
    return ok(
      await listV3RecordAssociations(auth.hubId, companies, path.companyId, path.toObjectType, query, (after) =>
        nextPageLink(baseUrlOf(requestContext), self, rawQueryString, after),
      ),
    );
  },
);
