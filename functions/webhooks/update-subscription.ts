import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { updateWebhookSubscription } from '../../shared/webhooks/webhook-management';
import { patchSubscriptionBody, subscriptionPath } from './webhooks.schema';

export const handler = httpHandler(
  'updateWebhookSubscription',
  { path: subscriptionPath, body: patchSubscriptionBody },
  async ({ path, body, auth }) =>
    ok(await updateWebhookSubscription(auth, Number(path.appId), path.subscriptionId, body)),
);
