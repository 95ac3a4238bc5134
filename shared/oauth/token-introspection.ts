import { findAppByClientId } from '../db/apps';
import { findInstallState } from '../db/install-states';
import { deleteAppGrant, findAppGrant, findGrant, findRefreshToken, revokeGrant } from '../db/oauth-grants';
import { nowSeconds } from '../base/clock';
import { OAuthError } from '../base/errors';
import { verifyAccessToken } from './access-token';
import { standingIn } from './install-status';
import { hashSecret } from './secrets';
import { signedAccessTokenOf } from './token-info';
import { authenticateClient, clientCredentialsOf } from './token-grants';

/** The form of POST /oauth/2026-03/token/introspect and /token/revoke. */
export interface TokenManagementRequest {
  token?: string;
  token_type_hint?: string;
  client_id?: string;
  client_secret?: string;
}

export type IntrospectionResponse =
  | { active: false }
  | {
      active: true;
      token_use: 'access_token';
      app_id: number;
      client_id: string;
      expires_in: number;
      hub_id: number;
      user_id: number;
      scopes: string[];
      signed_access_token: Record<string, string | number | boolean>;
      is_private_distribution: false;
      token: string;
      token_type: 'Bearer';
      hub_domain: string;
      user: string;
    }
  | {
      active: true;
      token_use: 'client_credentials';
      app_id: number;
      client_id: string;
      expires_in: number;
      scopes: string[];
      is_private_distribution: false;
      token: string;
      token_type: 'Bearer';
    }
  | {
      active: true;
      token_use: 'refresh_token';
      app_id: number;
      client_id: string;
      hub_id: number;
      user_id: number;
      scopes: string[];
      token: string;
      token_type: 'refresh';
      hub_domain: string;
      user: string;
    };

const inactive = { active: false } as const;

/** Access tokens are "claims.signature"; refresh tokens never contain a dot. The hint is only a hint (RFC 7009 2.1). */
const isAccessTokenShaped = (token: string): boolean => token.includes('.');

async function authenticatedRequest(
  request: TokenManagementRequest,
  authorization: string | undefined,
): Promise<{ clientId: string; appId: number; token: string }> {
  const credentials = clientCredentialsOf(request, authorization);
  const app = authenticateClient(await findAppByClientId(credentials.clientId), credentials);
  if (!request.token)
    throw new OAuthError('BAD_TOKEN', 'invalid_request', 'missing token', { context: { field: ['token'] } });
  return { clientId: app.clientId, appId: app.appId, token: request.token };
}

/**
 * RFC 7662 introspection. Anything this client may not see (unknown, expired, revoked, of an ended
 * install, issued to another app) is the same 200 {active:false}; only bad client credentials are an
 * error (401). The install state is read fresh here, not from the API's per-instance cache.
 */
export async function introspectToken(
  request: TokenManagementRequest,
  authorization: string | undefined,
): Promise<IntrospectionResponse> {
  const { clientId, appId, token } = await authenticatedRequest(request, authorization);
  if (isAccessTokenShaped(token)) {
    const verified = verifyAccessToken(token);
    if (verified.outcome !== 'valid' || verified.claims.appId !== appId) return inactive;
    const { claims } = verified;
    if (claims.kind === 'app') {
      // The app's own token: no account or user to name; inactive once revoked (its record is gone).
      const appGrant = await findAppGrant(claims.grantId);
      if (!appGrant || appGrant.clientId !== clientId) return inactive;
      return {
        active: true,
        token_use: 'client_credentials',
        app_id: claims.appId,
        client_id: clientId,
        expires_in: claims.expiresAtSeconds - nowSeconds(),
        scopes: [...claims.scopes],
        is_private_distribution: false,
        token,
        token_type: 'Bearer',
      };
    }
    const [grant, state] = await Promise.all([findGrant(claims.grantId), findInstallState(claims.hubId, claims.appId)]);
    if (!grant || grant.clientId !== clientId) return inactive;
    if (standingIn(state, { grantId: grant.grantId, installGeneration: claims.installGeneration ?? '' }) !== 'live')
      return inactive;
    return {
      active: true,
      token_use: 'access_token',
      app_id: claims.appId,
      client_id: clientId,
      expires_in: claims.expiresAtSeconds - nowSeconds(),
      hub_id: claims.hubId,
      user_id: claims.userId,
      scopes: [...claims.scopes],
      signed_access_token: signedAccessTokenOf(token, claims, grant),
      is_private_distribution: false,
      token,
      token_type: 'Bearer',
      hub_domain: grant.hubDomain,
      user: grant.userEmail,
    };
  }
  const refresh = await findRefreshToken(hashSecret(token));
  if (!refresh || refresh.clientId !== clientId) return inactive;
  const state = await findInstallState(refresh.hubId, refresh.appId);
  if (standingIn(state, { grantId: refresh.grantId, installGeneration: refresh.installGeneration ?? '' }) !== 'live')
    return inactive;
  return {
    active: true,
    token_use: 'refresh_token',
    app_id: refresh.appId,
    client_id: clientId,
    hub_id: refresh.hubId,
    user_id: refresh.userId,
    scopes: refresh.scopes,
    token,
    token_type: 'refresh',
    hub_domain: refresh.hubDomain,
    user: refresh.userEmail,
  };
}

/**
 * RFC 7009 revocation: revokes the whole grant the token belongs to (its refresh token and, for
 * introspection and token info, every access token minted from it). Unknown tokens and tokens of
 * other clients are a 200 too, with nothing changed. Access tokens of the grant still pass API
 * auth until they expire (at most 30 minutes): API auth reads nothing from DynamoDB. An app token
 * (client credentials) is its own grant: its record goes, and checkAppToken, which reads it, refuses it.
 */
export async function revokeToken(request: TokenManagementRequest, authorization: string | undefined): Promise<void> {
  const { clientId, appId, token } = await authenticatedRequest(request, authorization);
  if (isAccessTokenShaped(token)) {
    const verified = verifyAccessToken(token);
    // An expired access token still names its grant: revoking it still ends the grant.
    if (verified.outcome === 'invalid' || verified.claims.appId !== appId) return;
    if (verified.claims.kind === 'app') {
      const appGrant = await findAppGrant(verified.claims.grantId);
      if (appGrant && appGrant.clientId === clientId) await deleteAppGrant(appGrant.grantId);
      return;
    }
    const grant = await findGrant(verified.claims.grantId);
    if (grant && grant.clientId === clientId) await revokeGrant(grant.grantId, grant.refreshTokenHash);
    return;
  }
  const tokenHash = hashSecret(token);
  const refresh = await findRefreshToken(tokenHash);
  if (refresh && refresh.clientId === clientId) await revokeGrant(refresh.grantId, tokenHash);
}
