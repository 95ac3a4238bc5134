import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { updatePropertyGroup } from '../../shared/properties/change-properties';
import { groupNamePath, updateGroupBody } from './property.schema';
import { resolvePropertyType } from './resolve-property-type';

export const handler = httpHandler(
  'updatePropertyGroup',
  { path: groupNamePath, body: updateGroupBody },
  async ({ path, body, auth }) => {
    const type = resolvePropertyType(auth, path.objectType, 'write');
    return ok(await updatePropertyGroup(type, auth.hubId, path.groupName, body));
  },
);
