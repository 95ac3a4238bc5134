import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { getCompanyProperty } from '../../shared/properties/company-properties';
import { propertyNamePath, propertyReadQuery } from './create-company-property.schema';

export const handler = httpHandler(
  'getCompanyProperty',
  { path: propertyNamePath, query: propertyReadQuery },
  async ({ path, query, auth }) => ok(await getCompanyProperty(auth.hubId, path.propertyName, query.archived)),
);
