import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { listCompanyProperties } from '../../shared/properties/company-properties';
import { propertyReadQuery } from './create-company-property.schema';

export const handler = httpHandler('listCompanyProperties', { query: propertyReadQuery }, async ({ auth, query }) =>
  ok({ results: await listCompanyProperties(auth.hubId, query.archived) }),
);
