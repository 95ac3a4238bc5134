import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { getCompanyProperty } from '../../shared/properties/type-properties';
import { propertyNamePath, propertyReadQuery } from './property.schema';
import { resolvePropertyType } from './resolve-property-type';

export const handler = httpHandler(
  'getProperty',
  { path: propertyNamePath, query: propertyReadQuery },
  async ({ path, query, auth }) => {
    resolvePropertyType(auth, path.objectType, 'read');
    return ok(await getCompanyProperty(auth.hubId, path.propertyName, query.archived));
  },
);
