import { baseUrlOf } from '../../shared/http/base-url';
import { httpHandler } from '../../shared/http/http-handler';
import { multiStatus, ok } from '../../shared/http/responses';
import { journalScopeOf, readJournalBatch } from '../../shared/webhooks-journal/journal-reads';
import { batchReadBody, journalQuery } from './journal.schema';

export const handler = httpHandler(
  'readJournalBatch',
  { body: batchReadBody, query: journalQuery },
  async ({ body, query, auth, requestContext }) => {
    const reader = { appId: auth.appId, baseUrl: baseUrlOf(requestContext) };
    const result = await readJournalBatch(reader, journalScopeOf(reader, query.installPortalId), body.inputs);
    return result.numErrors ? multiStatus(result) : ok(result);
  },
);
