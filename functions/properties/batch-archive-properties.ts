import { httpHandler } from '../../shared/http/http-handler';
import { noContent } from '../../shared/http/responses';
import { batchArchiveCompanyProperties } from '../../shared/properties/change-properties';
import { batchArchivePropertiesBody, objectTypePath } from './property.schema';
import { resolvePropertyType } from './resolve-property-type';

export const handler = httpHandler(
  'batchArchiveProperties',
  { path: objectTypePath, body: batchArchivePropertiesBody },
  async ({ path, body, auth }) => {
    resolvePropertyType(auth, path.objectType, 'write');
    await batchArchiveCompanyProperties(
      auth.hubId,
      body.inputs.map((input) => input.name),
    );
    return noContent();
  },
);
