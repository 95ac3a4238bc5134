import { httpHandler } from '../../shared/http/http-handler';
import { ok, multiStatus } from '../../shared/http/responses';
import { batchReadProperties } from '../../shared/properties/change-properties';
import { batchReadPropertiesBody, objectTypePath } from './property.schema';
import { resolvePropertyType } from './resolve-property-type';

export const handler = httpHandler(
  'batchReadProperties',
  { path: objectTypePath, body: batchReadPropertiesBody },
  async ({ path, body, auth }) => {
    const type = resolvePropertyType(auth, path.objectType, 'read');
    const result = await batchReadProperties(
      type,
      auth.hubId,
      body.inputs.map((input) => input.name),
      body.archived ?? false,
    );
    return result.numErrors ? multiStatus(result) : ok(result);
  },
);
