import { accountDetailsOf } from '../../shared/account-info/account-details';
import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';

export const handler = httpHandler('getAccountDetails', {}, async ({ auth }) => ok(accountDetailsOf(auth)));
