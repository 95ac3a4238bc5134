import { httpHandler } from '../../shared/http/http-handler';
import { noContent } from '../../shared/http/responses';
import { deleteJournalFilterById } from '../../shared/webhooks-journal/filters';
import { filterPath } from './webhooks-journal.schema';

export const handler = httpHandler('deleteJournalFilter', { path: filterPath }, async ({ path, auth }) => {
  await deleteJournalFilterById(auth, path.filterId);
  return noContent();
});
