import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { getPropertyGroup } from '../../shared/properties/change-company-properties';
import { groupNamePath } from './create-company-property.schema';

export const handler = httpHandler('getPropertyGroup', { path: groupNamePath }, async ({ path, auth }) =>
  ok(await getPropertyGroup(auth.hubId, path.groupName)),
);
