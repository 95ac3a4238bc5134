import { readPrivateAppsDailyUsage } from '../../shared/account-info/read-account-info';
import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';

export const handler = httpHandler('getPrivateAppsDailyApiUsage', {}, async ({ auth }) =>
  ok(await readPrivateAppsDailyUsage(auth.hubId)),
);
