import { readAccountDetails } from '../../shared/account-info/read-account-info';
import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';

export const handler = httpHandler('getAccountDetails', {}, async ({ auth }) =>
  ok(await readAccountDetails(auth.hubId)),
);
