import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { getJournalSubscription } from '../../shared/webhooks-journal/subscriptions';
import { subscriptionPath } from './webhooks-journal.schema';

export const handler = httpHandler('getJournalSubscription', { path: subscriptionPath }, async ({ path, auth }) =>
  ok(await getJournalSubscription(auth, path.subscriptionId)),
);
