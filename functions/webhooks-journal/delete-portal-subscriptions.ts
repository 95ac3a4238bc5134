import { httpHandler } from '../../shared/http/http-handler';
import { noContent } from '../../shared/http/responses';
import { deleteJournalSubscriptionsOfPortal } from '../../shared/webhooks-journal/subscriptions';
import { portalPath } from './webhooks-journal.schema';

export const handler = httpHandler('deleteJournalPortalSubscriptions', { path: portalPath }, async ({ path, auth }) => {
  await deleteJournalSubscriptionsOfPortal(auth, path.portalId);
  return noContent();
});
