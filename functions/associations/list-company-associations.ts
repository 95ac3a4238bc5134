import '../../shared/http/path-object-types';
import { listCompanyAssociations } from '../../shared/associations/company-associations';
import { httpHandler } from '../../shared/http/http-handler';
import { nextPageLink, ok } from '../../shared/http/responses';
import { associationPageQuery, companyAssociationsPath } from './association.schema';

export const handler = httpHandler(
  'listCompanyAssociations',
  { path: companyAssociationsPath, query: associationPageQuery },
  async ({ path, query, auth, baseUrl, rawQueryString }) => {
    const self = `/crm/v3/objects/companies/${encodeURIComponent(path.companyId)}/associations/${encodeURIComponent(path.toObjectType)}`;
    return ok(
      await listCompanyAssociations(auth.hubId, path.companyId, path.toObjectType, query, (after) =>
        nextPageLink(baseUrl, self, rawQueryString, after),
      ),
    );
  },
);
