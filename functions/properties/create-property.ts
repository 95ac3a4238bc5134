import { httpHandler } from '../../shared/http/http-handler';
import { created } from '../../shared/http/responses';
import { createProperty } from '../../shared/properties/type-properties';
import { createPropertyBody, objectTypePath } from './property.schema';
import { resolvePropertyType } from './resolve-property-type';

export const handler = httpHandler(
  'createProperty',
  { path: objectTypePath, body: createPropertyBody },
  async ({ path, body, auth }) => {
    const type = resolvePropertyType(auth, path.objectType, 'write');
    return created(await createProperty(type, auth.hubId, auth.userId, body));
  },
);
