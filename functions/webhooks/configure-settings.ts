import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { configureWebhookSettings } from '../../shared/webhooks/webhook-management';
import { appPath, settingsBody } from './webhooks.schema';

export const handler = httpHandler(
  'configureWebhookSettings',
  { path: appPath, body: settingsBody },
  async ({ path, body, auth }) => ok(await configureWebhookSettings(auth, Number(path.appId), body)),
);
