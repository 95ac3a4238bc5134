import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { updatePropertyGroup } from '../../shared/properties/change-company-properties';
import { groupNamePath, updateGroupBody } from './create-company-property.schema';

export const handler = httpHandler(
  'updatePropertyGroup',
  { path: groupNamePath, body: updateGroupBody },
  async ({ path, body, auth }) => ok(await updatePropertyGroup(auth.hubId, path.groupName, body)),
);
