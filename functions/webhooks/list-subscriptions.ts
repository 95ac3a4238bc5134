import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { listWebhookSubscriptions } from '../../shared/webhooks/webhook-management';
import { appPath } from './webhooks.schema';

export const handler = httpHandler('listWebhookSubscriptions', { path: appPath }, async ({ path, auth }) =>
  ok(await listWebhookSubscriptions(auth, Number(path.appId))),
);
