import { httpHandler } from '../../shared/http/http-handler';
import { noContent } from '../../shared/http/responses';
import { archivePropertyGroup } from '../../shared/properties/change-company-properties';
import { groupNamePath } from './create-company-property.schema';

export const handler = httpHandler('archivePropertyGroup', { path: groupNamePath }, async ({ path, auth }) => {
  await archivePropertyGroup(auth.hubId, path.groupName);
  return noContent();
});
