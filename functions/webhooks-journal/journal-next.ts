import { baseUrlOf } from '../../shared/http/base-url';
import { httpHandler } from '../../shared/http/http-handler';
import { noContent, ok } from '../../shared/http/responses';
import { journalScopeOf, nextJournalEntry } from '../../shared/webhooks-journal/journal-reads';
import { journalQuery, offsetPath } from './journal.schema';

// 204 when the offset is the latest entry: nothing follows it yet.
export const handler = httpHandler(
  'getJournalNext',
  { path: offsetPath, query: journalQuery },
  async ({ path, query, auth, requestContext }) => {
    const reader = { appId: auth.appId, baseUrl: baseUrlOf(requestContext) };
    const next = await nextJournalEntry(reader, journalScopeOf(reader, query.installPortalId), path.offset);
    return next ? ok(next) : noContent();
  },
);
