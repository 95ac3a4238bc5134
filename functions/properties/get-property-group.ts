import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { getPropertyGroup } from '../../shared/properties/change-properties';
import { groupNamePath } from './property.schema';
import { resolvePropertyType } from './resolve-property-type';

export const handler = httpHandler('getPropertyGroup', { path: groupNamePath }, async ({ path, auth }) => {
  const type = resolvePropertyType(auth, path.objectType, 'read');
  return ok(await getPropertyGroup(type, auth.hubId, path.groupName));
});
