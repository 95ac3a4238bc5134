import { listRecordAssociations } from '../../shared/associations/record-associations';
import { baseUrlOf } from '../../shared/http/base-url';
import { httpHandler } from '../../shared/http/http-handler';
import { requireFromTypeScope } from './require-from-scope';
import { nextPageLink, ok } from '../../shared/http/responses';
import { associationPageQuery, recordAssociationsPath } from './association.schema';

export const handler = httpHandler(
  'getRecordAssociations',
  { path: recordAssociationsPath, query: associationPageQuery },
  async ({ path, query, auth, requestContext, rawQueryString, version }) => {
    requireFromTypeScope(auth, path.objectType, 'objectType', 'read');
    const self = `${version ? `/crm/objects/${version}` : '/crm/v4/objects'}/${encodeURIComponent(path.objectType)}/${encodeURIComponent(path.objectId)}/associations/${encodeURIComponent(path.toObjectType)}`;
    return ok(
      await listRecordAssociations(auth.hubId, path.objectType, path.objectId, path.toObjectType, query, (after) =>
        nextPageLink(baseUrlOf(requestContext), self, rawQueryString, after),
      ),
    );
  },
);
