import { httpHandler } from '../../shared/http/http-handler';
import { created } from '../../shared/http/responses';
import { withTestAccountWriteGuard } from '../../shared/sandbox/access';
import { loadFixtures } from '../../shared/sandbox/fixtures';
import { fixturesBody, testAccountPath } from './sandbox.schema';

export const handler = httpHandler(
  'loadTestAccountFixtures',
  { path: testAccountPath, body: fixturesBody },
  async ({ path, body, auth, deadlineMs }) =>
    created(await withTestAccountWriteGuard(path.hubId, () => loadFixtures(auth, path.hubId, body, deadlineMs))),
);
