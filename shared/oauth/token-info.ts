import { findInstallState } from '../db/install-states';
import { findAppGrant, findGrant, findRefreshToken, deleteRefreshToken, type Grant } from '../db/oauth-grants';
import { nowSeconds } from '../base/clock';
import { NotFoundError } from '../base/errors';
import { verifyAccessToken, type AccessTokenClaims } from './access-token';
import { standingIn } from './install-status';
import { encodeScopeMask } from './scopes';
import { hashSecret } from './secrets';

export interface AccessTokenInfo {
  token: string;
  user: string;
  hub_domain: string;
  scopes: string[];
  signed_access_token: Record<string, string | number | boolean>;
  hub_id: number;
  app_id: number;
  expires_in: number;
  user_id: number;
  token_type: 'access';
  is_private_distribution: boolean;
}

/** An app token's (client credentials) metadata: no user, account or signed install to name. */
export interface AppTokenInfo {
  token: string;
  scopes: string[];
  app_id: number;
  expires_in: number;
  token_type: 'access';
  token_use: 'client_credentials';
  is_private_distribution: boolean;
}

export interface RefreshTokenInfo {
  token: string;
  user: string;
  hub_domain: string;
  scopes: string[];
  hub_id: number;
  client_id: string;
  user_id: number;
  token_type: 'refresh';
}

/** HubSpot's SignedAccessToken object, shared by v1 token info and 2026-03 introspection. */
export function signedAccessTokenOf(
  token: string,
  claims: AccessTokenClaims,
  grant: Grant,
): Record<string, string | number | boolean> {
  const signature = token.split('.')[1] ?? '';
  const scopeMask = encodeScopeMask(claims.scopes);
  return {
    expiresAt: claims.expiresAtSeconds * 1000,
    scopes: scopeMask,
    hubId: claims.hubId,
    userId: claims.userId,
    appId: claims.appId,
    signature,
    scopeToScopeGroupPks: scopeMask,
    newSignature: signature,
    hublet: 'na1',
    trialScopes: '',
    trialScopeToScopeGroupPks: '',
    isUserLevel: false,
    isPrivateDistribution: false,
    isServiceAccount: false,
    installingUserId: grant.userId,
    appInstallId: grant.grantId,
    audience: grant.clientId,
  };
}

export async function describeAccessToken(token: string): Promise<AccessTokenInfo | AppTokenInfo> {
  const result = verifyAccessToken(token);
  if (result.outcome === 'invalid')
    throw new NotFoundError('The access token is invalid.', { context: { token: ['invalid'] } });
  if (result.outcome === 'expired') {
    throw new NotFoundError(`The access token expired ${result.expiredForSeconds} second(s) ago.`, {
      context: { token: ['expired'] },
    });
  }
  const { claims } = result;
  if (claims.kind === 'app') {
    // Revoked: its record is gone, and it answers as one of an unknown grant.
    if (!(await findAppGrant(claims.grantId)))
      throw new NotFoundError('The access token is invalid.', { context: { token: ['unknown grant'] } });
    return {
      token,
      scopes: [...claims.scopes],
      app_id: claims.appId,
      expires_in: claims.expiresAtSeconds - nowSeconds(),
      token_type: 'access',
      token_use: 'client_credentials',
      is_private_distribution: false,
    };
  }
  const [grant, state] = await Promise.all([findGrant(claims.grantId), findInstallState(claims.hubId, claims.appId)]);
  // A token of an ended install, or of a grant revoked for a replayed code, answers as one of an unknown grant.
  if (
    !grant ||
    standingIn(state, { grantId: grant.grantId, installGeneration: claims.installGeneration ?? '' }) !== 'live'
  ) {
    throw new NotFoundError('The access token is invalid.', { context: { token: ['unknown grant'] } });
  }
  return {
    token,
    user: grant.userEmail,
    hub_domain: grant.hubDomain,
    scopes: [...claims.scopes],
    signed_access_token: signedAccessTokenOf(token, claims, grant),
    hub_id: claims.hubId,
    app_id: claims.appId,
    expires_in: claims.expiresAtSeconds - nowSeconds(),
    user_id: claims.userId,
    token_type: 'access',
    is_private_distribution: false,
  };
}

export async function describeRefreshToken(token: string): Promise<RefreshTokenInfo> {
  const found = await findRefreshToken(hashSecret(token));
  const state = found ? await findInstallState(found.hubId, found.appId) : undefined;
  if (
    !found ||
    standingIn(state, { grantId: found.grantId, installGeneration: found.installGeneration ?? '' }) !== 'live'
  ) {
    throw new NotFoundError('refresh token not found', { context: { token: ['unknown'] } });
  }
  return {
    token,
    user: found.userEmail,
    hub_domain: found.hubDomain,
    scopes: found.scopes,
    hub_id: found.hubId,
    client_id: found.clientId,
    user_id: found.userId,
    token_type: 'refresh',
  };
}

/** Deletes only the refresh token: issued access tokens live on until they expire, and the install stays. */
export async function removeRefreshToken(token: string): Promise<void> {
  if (!(await deleteRefreshToken(hashSecret(token)))) {
    throw new NotFoundError('refresh token not found', { context: { token: ['unknown'] } });
  }
}
