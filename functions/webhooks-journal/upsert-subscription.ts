import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { upsertJournalSubscription } from '../../shared/webhooks-journal/subscriptions';
import { upsertSubscriptionBody } from './webhooks-journal.schema';

export const handler = httpHandler(
  'upsertJournalSubscription',
  { body: upsertSubscriptionBody },
  async ({ body, auth }) => ok(await upsertJournalSubscription(auth, body)),
);
