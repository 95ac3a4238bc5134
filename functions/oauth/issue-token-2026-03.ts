import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { refuseCredentialsInQuery } from '../../shared/oauth/query-credentials';
import { issueTokens } from '../../shared/oauth/token-grants';
import { tokenBody } from './token-request.schema';

/**
 * The 2026-03 token endpoint (and its /oauth/v3 alias), the one that also takes client_credentials:
 * everything travels in the form body; nothing in the query.
 */
export const handler = httpHandler(
  'issueToken202603',
  { body: tokenBody },
  async ({ body, headers, rawQueryString }) => {
    refuseCredentialsInQuery(rawQueryString);
    const issued = await issueTokens(body, headers.authorization, {
      allowsScopeNarrowing: true,
      allowsClientCredentials: true,
    });
    const noStore = { 'cache-control': 'no-store', pragma: 'no-cache' };
    if (issued.token_use === 'client_credentials') return ok(issued, noStore);
    return ok(
      {
        token_type: issued.token_type,
        access_token: issued.access_token,
        refresh_token: issued.refresh_token,
        expires_in: issued.expires_in,
        token_use: issued.token_use,
        hub_id: issued.hub_id,
        scopes: issued.scopes,
        user_id: issued.user_id,
      },
      noStore,
    );
  },
);
