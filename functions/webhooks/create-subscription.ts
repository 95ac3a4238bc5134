import { httpHandler } from '../../shared/http/http-handler';
import { created } from '../../shared/http/responses';
import { createWebhookSubscription } from '../../shared/webhooks/webhook-management';
import { appPath, createSubscriptionBody } from './webhooks.schema';

export const handler = httpHandler(
  'createWebhookSubscription',
  { path: appPath, body: createSubscriptionBody },
  async ({ path, body, auth }) => created(await createWebhookSubscription(auth, Number(path.appId), body)),
);
