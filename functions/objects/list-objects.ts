import { listRecords } from '../../shared/records/read-records';
import { baseUrlOf } from '../../shared/http/base-url';
import { httpHandler } from '../../shared/http/http-handler';
import { nextPageLink, ok } from '../../shared/http/responses';
import { listObjectsQuery, objectTypePath } from './object.schema';
import { objectsPrefix, resolveObjectType } from './resolve-object-type';

export const handler = httpHandler(
  'listObjects',
  { path: objectTypePath, query: listObjectsQuery },
  async ({ path, query, auth, requestContext, rawQueryString, version }) => {
    const type = resolveObjectType(auth, path.objectType, 'read');
    return ok(
      await listRecords(type, auth.hubId, query, (after) =>
        nextPageLink(baseUrlOf(requestContext), `${objectsPrefix(version)}/${type.name}`, rawQueryString, after),
      ),
    );
  },
);
