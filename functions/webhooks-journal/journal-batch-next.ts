import { baseUrlOf } from '../../shared/http/base-url';
import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { journalCountOf, journalScopeOf, nextJournalBatch } from '../../shared/webhooks-journal/journal-reads';
import { journalQuery, offsetCountPath } from './journal.schema';

export const handler = httpHandler(
  'getJournalBatchNext',
  { path: offsetCountPath, query: journalQuery },
  async ({ path, query, auth, requestContext }) => {
    const reader = { appId: auth.appId, baseUrl: baseUrlOf(requestContext) };
    const scope = journalScopeOf(reader, query.installPortalId);
    return ok(await nextJournalBatch(reader, scope, path.offset, journalCountOf(path.count)));
  },
);
