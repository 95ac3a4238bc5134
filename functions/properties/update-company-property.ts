import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { updateCompanyProperty } from '../../shared/properties/change-company-properties';
import { propertyNamePath, updateCompanyPropertyBody } from './create-company-property.schema';

export const handler = httpHandler(
  'updateCompanyProperty',
  { path: propertyNamePath, body: updateCompanyPropertyBody },
  async ({ path, body, auth }) => ok(await updateCompanyProperty(auth.hubId, auth.userId, path.propertyName, body)),
);
