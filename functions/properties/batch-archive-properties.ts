import { httpHandler } from '../../shared/http/http-handler';
import { noContent } from '../../shared/http/responses';
import { batchArchiveProperties } from '../../shared/properties/change-properties';
import { batchArchivePropertiesBody, objectTypePath } from './property.schema';
import { resolvePropertyType } from './resolve-property-type';

export const handler = httpHandler(
  'batchArchiveProperties',
  { path: objectTypePath, body: batchArchivePropertiesBody },
  async ({ path, body, auth }) => {
    const type = resolvePropertyType(auth, path.objectType, 'write');
    await batchArchiveProperties(
      type,
      auth.hubId,
      body.inputs.map((input) => input.name),
    );
    return noContent();
  },
);
