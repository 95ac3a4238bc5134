import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { setWriteValidation } from '../../shared/sandbox/write-validation';
import { writeValidationBody, writeValidationPath } from './sandbox.schema';

export const handler = httpHandler(
  'setTestAccountWriteValidation',
  { path: writeValidationPath, body: writeValidationBody },
  async ({ path, body, auth }) => ok(await setWriteValidation(auth, path.hubId, path.objectType, body)),
);
