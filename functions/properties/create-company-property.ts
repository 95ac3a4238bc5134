import { httpHandler } from '../../shared/http/http-handler';
import { created } from '../../shared/http/responses';
import { createCompanyProperty } from '../../shared/properties/company-properties';
import { createCompanyPropertyBody } from './create-company-property.schema';

export const handler = httpHandler(
  'createCompanyProperty',
  { body: createCompanyPropertyBody },
  async ({ body, auth }) => created(await createCompanyProperty(auth.hubId, auth.userId, body)),
);
