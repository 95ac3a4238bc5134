import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { listAccountFaults } from '../../shared/sandbox/faults';
import { testAccountPath } from './sandbox.schema';

export const handler = httpHandler('listTestAccountFaults', { path: testAccountPath }, async ({ path, auth }) =>
  ok(await listAccountFaults(auth, path.hubId)),
);
