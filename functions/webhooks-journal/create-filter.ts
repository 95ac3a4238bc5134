import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { createJournalFilter } from '../../shared/webhooks-journal/filters';
import { createFilterBody } from './webhooks-journal.schema';

export const handler = httpHandler('createJournalFilter', { body: createFilterBody }, async ({ body, auth }) =>
  ok(await createJournalFilter(auth, body)),
);
