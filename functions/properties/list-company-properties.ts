import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { listCompanyProperties } from '../../shared/properties/company-properties';

export const handler = httpHandler('listCompanyProperties', {}, async ({ auth }) =>
  ok({ results: await listCompanyProperties(auth.hubId) }));
