import { baseUrlOf } from '../../shared/http/base-url';
import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { journalCountOf, journalScopeOf, latestJournalBatch } from '../../shared/webhooks-journal/journal-reads';
import { countPath, journalQuery } from './journal.schema';

export const handler = httpHandler(
  'getJournalBatchLatest',
  { path: countPath, query: journalQuery },
  async ({ path, query, auth, requestContext }) => {
    const reader = { appId: auth.appId, baseUrl: baseUrlOf(requestContext) };
    const scope = journalScopeOf(reader, query.installPortalId);
    return ok(await latestJournalBatch(reader, scope, journalCountOf(path.count)));
  },
);
