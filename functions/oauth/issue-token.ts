import { httpHandler, typedSchema } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { issueTokens } from '../../shared/oauth/token-grants';
import { tokenBody, tokenFields } from './token-request.schema';

/** OAuth v1 also took client_secret and refresh_token as query parameters. */
const tokenQuery = typedSchema({ type: 'object', properties: tokenFields } as const);

export const handler = httpHandler('issueToken', { body: tokenBody, query: tokenQuery }, async ({ body, query, headers }) =>
  ok(await issueTokens({ ...query, ...body }, headers.authorization), { 'cache-control': 'no-store', pragma: 'no-cache' }));
