import { httpHandler } from '../../shared/http/http-handler';
import { created } from '../../shared/http/responses';
import { createTestAccount } from '../../shared/sandbox/test-accounts';
import { createTestAccountBody } from './sandbox.schema';

export const handler = httpHandler('createTestAccount', { body: createTestAccountBody }, async ({ body, auth }) =>
  created(await createTestAccount(auth, body ?? {})),
);
