import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { listJournalFiltersOfSubscription } from '../../shared/webhooks-journal/filters';
import { subscriptionPath } from './webhooks-journal.schema';

export const handler = httpHandler(
  'listJournalSubscriptionFilters',
  { path: subscriptionPath },
  async ({ path, auth }) => ok(await listJournalFiltersOfSubscription(auth, path.subscriptionId)),
);
