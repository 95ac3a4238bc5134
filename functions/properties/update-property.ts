import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { updateProperty } from '../../shared/properties/change-properties';
import { propertyNamePath, updatePropertyBody } from './property.schema';
import { resolvePropertyType } from './resolve-property-type';

export const handler = httpHandler(
  'updateProperty',
  { path: propertyNamePath, body: updatePropertyBody },
  async ({ path, body, auth }) => {
    const type = resolvePropertyType(auth, path.objectType, 'write');
    return ok(await updateProperty(type, auth.hubId, auth.userId, path.propertyName, body));
  },
);
