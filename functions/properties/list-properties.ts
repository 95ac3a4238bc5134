import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { listProperties } from '../../shared/properties/type-properties';
import { objectTypePath, propertyReadQuery } from './property.schema';
import { resolvePropertyType } from './resolve-property-type';

export const handler = httpHandler(
  'listProperties',
  { path: objectTypePath, query: propertyReadQuery },
  async ({ path, auth, query }) => {
    const type = resolvePropertyType(auth, path.objectType, 'read');
    return ok({ results: await listProperties(type, auth.hubId, query.archived) });
  },
);
