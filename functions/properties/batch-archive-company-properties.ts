import { httpHandler } from '../../shared/http/http-handler';
import { noContent } from '../../shared/http/responses';
import { batchArchiveCompanyProperties } from '../../shared/properties/change-company-properties';
import { batchArchivePropertiesBody } from './create-company-property.schema';

export const handler = httpHandler(
  'batchArchiveCompanyProperties',
  { body: batchArchivePropertiesBody },
  async ({ body, auth }) => {
    await batchArchiveCompanyProperties(
      auth.hubId,
      body.inputs.map((input) => input.name),
    );
    return noContent();
  },
);
