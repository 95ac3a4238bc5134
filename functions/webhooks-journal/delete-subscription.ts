import { httpHandler } from '../../shared/http/http-handler';
import { noContent } from '../../shared/http/responses';
import { deleteJournalSubscriptionById } from '../../shared/webhooks-journal/subscriptions';
import { subscriptionPath } from './webhooks-journal.schema';

export const handler = httpHandler('deleteJournalSubscription', { path: subscriptionPath }, async ({ path, auth }) => {
  await deleteJournalSubscriptionById(auth, path.subscriptionId);
  return noContent();
});
