import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { refuseCredentialsInQuery } from '../../shared/oauth/query-credentials';
import { issueTokens } from '../../shared/oauth/token-grants';
import { tokenBody } from './token-request.schema';

/** Any query parameter passes validation, so that one in the wrong place gets its own answer. */
const tokenQuery = { type: 'object' } as const;

/** Everything is read from the form body; a credential, code or refresh token in the query string is refused. */
export const handler = httpHandler(
  'issueToken',
  { body: tokenBody, query: tokenQuery },
  async ({ body, headers, rawQueryString }) => {
    refuseCredentialsInQuery(rawQueryString);
    return ok(await issueTokens(body ?? {}, headers.authorization), {
      'cache-control': 'no-store',
      pragma: 'no-cache',
    });
  },
);
