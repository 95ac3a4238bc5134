import { httpHandler } from '../../shared/http/http-handler';
import { ok, multiStatus } from '../../shared/http/responses';
import { batchReadCompanyProperties } from '../../shared/properties/change-company-properties';
import { batchReadPropertiesBody } from './create-company-property.schema';

export const handler = httpHandler(
  'batchReadCompanyProperties',
  { body: batchReadPropertiesBody },
  async ({ body, auth }) => {
    const result = await batchReadCompanyProperties(
      auth.hubId,
      body.inputs.map((input) => input.name),
      body.archived ?? false,
    );
    return result.numErrors ? multiStatus(result) : ok(result);
  },
);
