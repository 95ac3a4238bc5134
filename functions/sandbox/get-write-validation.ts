import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { getWriteValidation } from '../../shared/sandbox/write-validation';
import { writeValidationPath } from './sandbox.schema';

export const handler = httpHandler(
  'getTestAccountWriteValidation',
  { path: writeValidationPath },
  async ({ path, auth }) => ok(await getWriteValidation(auth, path.hubId, path.objectType)),
);
