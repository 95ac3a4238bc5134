import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { listPropertyGroups } from '../../shared/properties/change-properties';
import { objectTypePath } from './property.schema';
import { resolvePropertyType } from './resolve-property-type';

export const handler = httpHandler('listPropertyGroups', { path: objectTypePath }, async ({ path, auth }) => {
  const type = resolvePropertyType(auth, path.objectType, 'read');
  return ok({ results: await listPropertyGroups(type, auth.hubId) });
});
