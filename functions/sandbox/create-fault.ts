import { httpHandler } from '../../shared/http/http-handler';
import { created } from '../../shared/http/responses';
import { createFault } from '../../shared/sandbox/faults';
import { faultBody, testAccountPath } from './sandbox.schema';

export const handler = httpHandler(
  'createTestAccountFault',
  { path: testAccountPath, body: faultBody },
  async ({ path, body, auth }) => created(await createFault(auth, path.hubId, body)),
);
