import { httpHandler } from '../../shared/http/http-handler';
import { created } from '../../shared/http/responses';
import { createPropertyGroup } from '../../shared/properties/change-properties';
import { createGroupBody, objectTypePath } from './property.schema';
import { resolvePropertyType } from './resolve-property-type';

export const handler = httpHandler(
  'createPropertyGroup',
  { path: objectTypePath, body: createGroupBody },
  async ({ path, body, auth }) => {
    const type = resolvePropertyType(auth, path.objectType, 'write');
    return created(await createPropertyGroup(type, auth.hubId, body));
  },
);
