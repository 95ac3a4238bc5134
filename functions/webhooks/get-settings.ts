import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { getWebhookSettings } from '../../shared/webhooks/webhook-management';
import { appPath } from './webhooks.schema';

export const handler = httpHandler('getWebhookSettings', { path: appPath }, async ({ path, auth }) =>
  ok(await getWebhookSettings(auth, Number(path.appId))),
);
