import { httpHandler } from '../../shared/http/http-handler';
import { noContent } from '../../shared/http/responses';
import { deleteTestAccount } from '../../shared/sandbox/test-accounts';
import { testAccountPath } from './sandbox.schema';

export const handler = httpHandler(
  'deleteTestAccount',
  { path: testAccountPath },
  async ({ path, auth, deadlineMs }) => {
    await deleteTestAccount(auth, path.hubId, deadlineMs);
    return noContent();
  },
);
