// In functions/oauth/ (the OAuth route stack), not functions/sandbox/: it signs access tokens, and every function
// that signs must sit in one stack, which waits for all the others at a key rotation (lib/api-stack.ts).
import { httpHandler } from '../../shared/http/http-handler';
import { created } from '../../shared/http/responses';
import { withTestAccountWriteGuard } from '../../shared/sandbox/access';
import { installInTestAccount } from '../../shared/sandbox/installs';
import { installBody, testAccountPath } from '../sandbox/sandbox.schema';

export const handler = httpHandler(
  'installTestAccountApp',
  { path: testAccountPath, body: installBody },
  async ({ path, body, auth }) =>
    created(await withTestAccountWriteGuard(path.hubId, () => installInTestAccount(auth, path.hubId, body)), {
      'cache-control': 'no-store',
      pragma: 'no-cache',
    }),
);
