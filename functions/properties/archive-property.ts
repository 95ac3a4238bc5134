import { NotFoundError } from '../../shared/base/errors';
import { httpHandler } from '../../shared/http/http-handler';
import { noContent } from '../../shared/http/responses';
import { archiveProperty } from '../../shared/properties/change-properties';
import { propertyNamePath } from './property.schema';
import { resolvePropertyType } from './resolve-property-type';

export const handler = httpHandler('archiveProperty', { path: propertyNamePath }, async ({ path, auth }) => {
  const type = resolvePropertyType(auth, path.objectType, 'write');
  if (!(await archiveProperty(type, auth.hubId, path.propertyName))) {
    throw new NotFoundError(`Unable to find property ${path.propertyName}`, {
      context: { propertyName: [path.propertyName] },
    });
  }
  return noContent();
});
