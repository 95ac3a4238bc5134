import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { refuseCredentialsInQuery } from '../../shared/oauth/query-credentials';
import { issueTokens } from '../../shared/oauth/token-grants';
import { introspectToken, revokeToken } from '../../shared/oauth/token-introspection';
import { tokenBody, tokenManagementBody } from './token-request.schema';

/**
 * The 2026-03 token API and its /oauth/v3 alias: each path is its own route row (and function),
 * built here from one definition. Everything travels in the form body; nothing in the query.
 */
const noStore = { 'cache-control': 'no-store', pragma: 'no-cache' };

export function issueTokenHandler(name: 'issueToken202603' | 'issueTokenV3') {
  return httpHandler(name, { body: tokenBody }, async ({ body, headers, rawQueryString }) => {
    refuseCredentialsInQuery(rawQueryString);
    const issued = await issueTokens(body, headers.authorization, { allowsScopeNarrowing: true });
    return ok({
      token_type: issued.token_type, access_token: issued.access_token, refresh_token: issued.refresh_token,
      expires_in: issued.expires_in, token_use: issued.token_use, hub_id: issued.hub_id, scopes: issued.scopes, user_id: issued.user_id,
    }, noStore);
  });
}

export function introspectTokenHandler(name: 'introspectToken202603' | 'introspectTokenV3') {
  return httpHandler(name, { body: tokenManagementBody }, async ({ body, headers, rawQueryString }) => {
    refuseCredentialsInQuery(rawQueryString);
    return ok(await introspectToken(body, headers.authorization), noStore);
  });
}

export function revokeTokenHandler(name: 'revokeToken202603' | 'revokeTokenV3') {
  return httpHandler(name, { body: tokenManagementBody }, async ({ body, headers, rawQueryString }) => {
    refuseCredentialsInQuery(rawQueryString);
    await revokeToken(body, headers.authorization);
    // RFC 7009 2.2: 200 whether or not the token was known.
    return ok({}, noStore);
  });
}
