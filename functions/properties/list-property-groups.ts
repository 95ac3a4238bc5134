import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { listPropertyGroups } from '../../shared/properties/change-company-properties';

export const handler = httpHandler('listPropertyGroups', {}, async ({ auth }) =>
  ok({ results: await listPropertyGroups(auth.hubId) }),
);
