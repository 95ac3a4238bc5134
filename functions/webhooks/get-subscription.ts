import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { getWebhookSubscription } from '../../shared/webhooks/webhook-management';
import { subscriptionPath } from './webhooks.schema';

export const handler = httpHandler('getWebhookSubscription', { path: subscriptionPath }, async ({ path, auth }) =>
  ok(await getWebhookSubscription(auth, Number(path.appId), path.subscriptionId)),
);
