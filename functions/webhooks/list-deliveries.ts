import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { listWebhookDeliveries } from '../../shared/webhooks/webhook-management';
import { appPath, deliveriesQuery } from './webhooks.schema';

export const handler = httpHandler(
  'listWebhookDeliveries',
  { path: appPath, query: deliveriesQuery },
  async ({ path, query, auth }) => ok(await listWebhookDeliveries(auth, Number(path.appId), query)),
);
