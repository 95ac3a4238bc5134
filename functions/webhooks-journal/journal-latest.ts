import { baseUrlOf } from '../../shared/http/base-url';
import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { journalScopeOf, latestJournalEntry } from '../../shared/webhooks-journal/journal-reads';
import { journalQuery } from './journal.schema';

export const handler = httpHandler(
  'getJournalLatest',
  { query: journalQuery },
  async ({ query, auth, requestContext }) => {
    const reader = { appId: auth.appId, baseUrl: baseUrlOf(requestContext) };
    return ok(await latestJournalEntry(reader, journalScopeOf(reader, query.installPortalId)));
  },
);
