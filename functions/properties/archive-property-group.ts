import { httpHandler } from '../../shared/http/http-handler';
import { noContent } from '../../shared/http/responses';
import { archivePropertyGroup } from '../../shared/properties/change-properties';
import { groupNamePath } from './property.schema';
import { resolvePropertyType } from './resolve-property-type';

export const handler = httpHandler('archivePropertyGroup', { path: groupNamePath }, async ({ path, auth }) => {
  const type = resolvePropertyType(auth, path.objectType, 'write');
  await archivePropertyGroup(type, auth.hubId, path.groupName);
  return noContent();
});
