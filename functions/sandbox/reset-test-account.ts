import { httpHandler } from '../../shared/http/http-handler';
import { noContent } from '../../shared/http/responses';
import { resetTestAccount } from '../../shared/sandbox/test-accounts';
import { testAccountPath } from './sandbox.schema';

export const handler = httpHandler(
  'resetTestAccount',
  { path: testAccountPath },
  async ({ path, auth, deadlineMs }) => {
    await resetTestAccount(auth, path.hubId, deadlineMs);
    return noContent();
  },
);
