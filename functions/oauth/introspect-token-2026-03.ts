import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { refuseCredentialsInQuery } from '../../shared/oauth/query-credentials';
import { introspectToken } from '../../shared/oauth/token-introspection';
import { tokenManagementBody } from './token-request.schema';

/** RFC 7662 introspection (and its /oauth/v3 alias): everything travels in the form body; nothing in the query. */
export const handler = httpHandler(
  'introspectToken202603',
  { body: tokenManagementBody },
  async ({ body, headers, rawQueryString }) => {
    refuseCredentialsInQuery(rawQueryString);
    return ok(await introspectToken(body, headers.authorization), { 'cache-control': 'no-store', pragma: 'no-cache' });
  },
);
