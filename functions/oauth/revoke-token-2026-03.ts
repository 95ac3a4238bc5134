import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { refuseCredentialsInQuery } from '../../shared/oauth/query-credentials';
import { revokeToken } from '../../shared/oauth/token-introspection';
import { tokenManagementBody } from './token-request.schema';

/** RFC 7009 revocation (and its /oauth/v3 alias): everything travels in the form body; nothing in the query. */
export const handler = httpHandler(
  'revokeToken202603',
  { body: tokenManagementBody },
  async ({ body, headers, rawQueryString }) => {
    refuseCredentialsInQuery(rawQueryString);
    await revokeToken(body, headers.authorization);
    // RFC 7009 2.2: 200 whether or not the token was known.
    return ok({}, { 'cache-control': 'no-store', pragma: 'no-cache' });
  },
);
