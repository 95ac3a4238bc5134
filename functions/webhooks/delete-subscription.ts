import { httpHandler } from '../../shared/http/http-handler';
import { noContent } from '../../shared/http/responses';
import { removeWebhookSubscription } from '../../shared/webhooks/webhook-management';
import { subscriptionPath } from './webhooks.schema';

export const handler = httpHandler('deleteWebhookSubscription', { path: subscriptionPath }, async ({ path, auth }) => {
  await removeWebhookSubscription(auth, Number(path.appId), path.subscriptionId);
  return noContent();
});
