import { httpHandler, typedSchema } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { issueTokens } from '../../shared/oauth/token-grants';

const tokenFields = {
  grant_type: { type: 'string', maxLength: 100 },
  client_id: { type: 'string', maxLength: 200 },
  client_secret: { type: 'string', maxLength: 200 },
  redirect_uri: { type: 'string', maxLength: 2000 },
  code: { type: 'string', maxLength: 200 },
  refresh_token: { type: 'string', maxLength: 200 },
  code_verifier: { type: 'string', maxLength: 200 },
  scope: { type: 'string', maxLength: 4000 },
} as const;

const tokenBody = typedSchema({ type: 'object', properties: tokenFields } as const);
/** Any query parameter passes validation, so that one in the wrong place gets its own answer. */
const tokenQuery = typedSchema({ type: 'object' } as const);

/** Everything is read from the form body; a credential, code or refresh token in the query string is refused. */
export const handler = httpHandler('issueToken', { body: tokenBody, query: tokenQuery }, async ({ body, query, headers }) =>
  ok(await issueTokens(body ?? {}, headers.authorization, Object.keys(query)), { 'cache-control': 'no-store', pragma: 'no-cache' }));
