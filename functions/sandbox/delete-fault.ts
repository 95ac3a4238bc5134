import { httpHandler } from '../../shared/http/http-handler';
import { noContent } from '../../shared/http/responses';
import { removeFault } from '../../shared/sandbox/faults';
import { faultPath } from './sandbox.schema';

export const handler = httpHandler('deleteTestAccountFault', { path: faultPath }, async ({ path, auth }) => {
  await removeFault(auth, path.hubId, path.faultId);
  return noContent();
});
