import { httpHandler } from '../../shared/http/http-handler';
import { noContent } from '../../shared/http/responses';
import { removeWebhookSettings } from '../../shared/webhooks/webhook-management';
import { appPath } from './webhooks.schema';

export const handler = httpHandler('deleteWebhookSettings', { path: appPath }, async ({ path, auth }) => {
  await removeWebhookSettings(auth, Number(path.appId));
  return noContent();
});
