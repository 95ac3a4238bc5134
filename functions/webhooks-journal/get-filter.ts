import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { getJournalFilter } from '../../shared/webhooks-journal/filters';
import { filterPath } from './webhooks-journal.schema';

export const handler = httpHandler('getJournalFilter', { path: filterPath }, async ({ path, auth }) =>
  ok(await getJournalFilter(auth, path.filterId)),
);
