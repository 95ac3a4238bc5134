import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { flushAccountWebhooks } from '../../shared/webhooks/account-flush';
import { requireTestAccount } from '../../shared/sandbox/access';
import { testAccountPath } from './sandbox.schema';

export const handler = httpHandler(
  'flushTestAccountWebhooks',
  { path: testAccountPath },
  async ({ path, auth, deadlineMs }) => {
    const account = await requireTestAccount(auth, path.hubId);
    return ok(await flushAccountWebhooks(account.hubId, deadlineMs));
  },
);
