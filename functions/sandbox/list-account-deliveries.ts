import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { listAccountDeliveries } from '../../shared/webhooks/account-flush';
import { requireTestAccount } from '../../shared/sandbox/access';
import { deliveriesQuery, testAccountPath } from './sandbox.schema';

export const handler = httpHandler(
  'listTestAccountWebhookDeliveries',
  { path: testAccountPath, query: deliveriesQuery },
  async ({ path, query, auth }) => {
    const account = await requireTestAccount(auth, path.hubId);
    return ok(await listAccountDeliveries(account.hubId, query));
  },
);
