import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { getProperty } from '../../shared/properties/type-properties';
import { propertyNamePath, propertyReadQuery } from './property.schema';
import { resolvePropertyType } from './resolve-property-type';

export const handler = httpHandler(
  'getProperty',
  { path: propertyNamePath, query: propertyReadQuery },
  async ({ path, query, auth }) => {
    const type = resolvePropertyType(auth, path.objectType, 'read');
    return ok(await getProperty(type, auth.hubId, path.propertyName, query.archived));
  },
);
