import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { readJournalFile } from '../../shared/webhooks-journal/journal-reads';
import { fileQuery, filePath } from './journal.schema';

export const handler = httpHandler('getJournalFile', { path: filePath, query: fileQuery }, async ({ path, query }) =>
  ok(await readJournalFile(path.appId, path.offset, query.expires, query.signature)),
);
