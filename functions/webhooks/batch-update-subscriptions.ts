import { httpHandler } from '../../shared/http/http-handler';
import { multiStatus, ok } from '../../shared/http/responses';
import { batchUpdateWebhookSubscriptions } from '../../shared/webhooks/webhook-management';
import { appPath, batchUpdateBody } from './webhooks.schema';

export const handler = httpHandler(
  'batchUpdateWebhookSubscriptions',
  { path: appPath, body: batchUpdateBody },
  async ({ path, body, auth }) => {
    const { errors, ...result } = await batchUpdateWebhookSubscriptions(auth, Number(path.appId), body.inputs);
    return errors.length === 0 ? ok(result) : multiStatus({ ...result, numErrors: errors.length, errors });
  },
);
