import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { listDeveloperTestAccounts } from '../../shared/sandbox/test-accounts';

export const handler = httpHandler('listTestAccounts', {}, async ({ auth }) =>
  ok(await listDeveloperTestAccounts(auth)),
);
