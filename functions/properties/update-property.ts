import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { updateCompanyProperty } from '../../shared/properties/change-properties';
import { propertyNamePath, updatePropertyBody } from './property.schema';
import { resolvePropertyType } from './resolve-property-type';

export const handler = httpHandler(
  'updateProperty',
  { path: propertyNamePath, body: updatePropertyBody },
  async ({ path, body, auth }) => {
    resolvePropertyType(auth, path.objectType, 'write');
    return ok(await updateCompanyProperty(auth.hubId, auth.userId, path.propertyName, body));
  },
);
