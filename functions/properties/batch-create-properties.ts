import { httpHandler } from '../../shared/http/http-handler';
import { created, multiStatus } from '../../shared/http/responses';
import { batchCreateProperties } from '../../shared/properties/change-properties';
import { batchCreatePropertiesBody, objectTypePath } from './property.schema';
import { resolvePropertyType } from './resolve-property-type';

export const handler = httpHandler(
  'batchCreateProperties',
  { path: objectTypePath, body: batchCreatePropertiesBody },
  async ({ path, body, auth }) => {
    const type = resolvePropertyType(auth, path.objectType, 'write');
    const result = await batchCreateProperties(type, auth.hubId, auth.userId, body.inputs);
    return result.numErrors ? multiStatus(result) : created(result);
  },
);
