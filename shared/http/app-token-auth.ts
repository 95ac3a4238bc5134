import { findAppGrant } from '../db/oauth-grants';
import { ExpiredAuthenticationError, InvalidAuthenticationError } from '../base/errors';
import { verifyAccessToken } from '../oauth/access-token';
import type { ClientCredentialsScope } from '../oauth/scopes';
import { invalidTokenMessage, missingCredentialsMessage, requireScopes } from './auth';

/** The caller of an app route (the webhooks journal): the app itself, with its client-credentials scopes. */
export interface AppAuthContext {
  appId: number;
  scopes: readonly string[];
}

/**
 * The check of an app token (the client-credentials grant's) for one of `requiredScopes`: its
 * signature and expiry, its kind (an account's token is refused as an unknown one, as account
 * routes refuse app tokens), the scope (403 MISSING_SCOPES), then its grant record, read strongly
 * consistent at every call, so a revoked token is refused at once everywhere. The reader needs the
 * `grants` partition.
 */
export async function checkAppToken(
  headers: Record<string, string | undefined>,
  requiredScopes: readonly ClientCredentialsScope[],
): Promise<AppAuthContext> {
  const header = headers.authorization;
  const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1]) throw new InvalidAuthenticationError(missingCredentialsMessage);
  const result = verifyAccessToken(match[1]);
  if (result.outcome === 'invalid' || result.claims.kind !== 'app')
    throw new InvalidAuthenticationError(invalidTokenMessage);
  if (result.outcome === 'expired')
    throw new ExpiredAuthenticationError(
      `The OAuth token used to make this call expired ${result.expiredForSeconds} second(s) ago.`,
      { context: { 'expire time': [new Date(result.claims.expiresAtSeconds * 1000).toISOString()] } },
    );
  const { claims } = result;
  requireScopes(claims.scopes, requiredScopes);
  const grant = await findAppGrant(claims.grantId);
  if (!grant || grant.appId !== claims.appId) throw new InvalidAuthenticationError(invalidTokenMessage);
  return { appId: claims.appId, scopes: claims.scopes };
}
