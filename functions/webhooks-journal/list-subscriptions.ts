import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { listJournalSubscriptionViews } from '../../shared/webhooks-journal/subscriptions';

export const handler = httpHandler('listJournalSubscriptions', {}, async ({ auth }) =>
  ok(await listJournalSubscriptionViews(auth)),
);
