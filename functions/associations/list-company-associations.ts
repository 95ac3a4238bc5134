import { listV3RecordAssociations } from '../../shared/associations/v3-record-associations';
import { requireObjectType } from '../../shared/objects/object-types';
import { httpHandler } from '../../shared/http/http-handler';
import { nextPageLink, ok } from '../../shared/http/responses';
import { associationPageQuery, companyAssociationsPath } from './association.schema';

const companies = requireObjectType('companies');

export const handler = httpHandler(
  'listCompanyAssociations',
  { path: companyAssociationsPath, query: associationPageQuery },
  async ({ path, query, auth, baseUrl, rawQueryString }) => {
    const self = `/crm/v3/objects/companies/${encodeURIComponent(path.companyId)}/associations/${encodeURIComponent(path.toObjectType)}`;
    return ok(
      await listV3RecordAssociations(auth.hubId, companies, path.companyId, path.toObjectType, query, (after) =>
        nextPageLink(baseUrl, self, rawQueryString, after),
      ),
    );
  },
);
