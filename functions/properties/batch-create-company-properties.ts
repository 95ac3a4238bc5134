import { httpHandler } from '../../shared/http/http-handler';
import { created, multiStatus } from '../../shared/http/responses';
import { batchCreateCompanyProperties } from '../../shared/properties/change-company-properties';
import { batchCreatePropertiesBody } from './create-company-property.schema';

export const handler = httpHandler(
  'batchCreateCompanyProperties',
  { body: batchCreatePropertiesBody },
  async ({ body, auth }) => {
    const result = await batchCreateCompanyProperties(auth.hubId, auth.userId, body.inputs);
    return result.numErrors ? multiStatus(result) : created(result);
  },
);
