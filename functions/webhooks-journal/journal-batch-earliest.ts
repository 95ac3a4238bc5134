import { baseUrlOf } from '../../shared/http/base-url';
import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { earliestJournalBatch, journalCountOf, journalScopeOf } from '../../shared/webhooks-journal/journal-reads';
import { countPath, journalQuery } from './journal.schema';

export const handler = httpHandler(
  'getJournalBatchEarliest',
  { path: countPath, query: journalQuery },
  async ({ path, query, auth, requestContext }) => {
    const reader = { appId: auth.appId, baseUrl: baseUrlOf(requestContext) };
    const scope = journalScopeOf(reader, query.installPortalId);
    return ok(await earliestJournalBatch(reader, scope, journalCountOf(path.count)));
  },
);
