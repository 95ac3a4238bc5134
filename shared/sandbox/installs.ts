import { findAppById } from '../db/apps';
import { NotFoundError, ValidationError } from '../base/errors';
import { accessTokenLifetimeSeconds } from '../oauth/access-token';
import { isClientCredentialsScope } from '../oauth/scopes';
import { installWithoutBrowser, type TokenResponse } from '../oauth/token-grants';
import { ownerOfTestAccount, requireTestAccount, type Developer } from './access';

export interface InstallInput {
  appId: number;
  scopes: readonly string[];
  expiresInSeconds?: number;
}

/**
 * Installs one of the developer's apps in the test account as its user would through the consent
 * pages, for a test suite without a browser: the same redemption as the token endpoint (a second
 * install gives new tokens; earlier ones work until they expire). `expiresInSeconds` shortens the
 * access tokens' lifetime (refreshed tokens keep it), so a test can see one expire.
 */
export async function installInTestAccount(
  developer: Developer,
  hubIdText: string,
  input: InstallInput,
): Promise<TokenResponse> {
  const link = await requireTestAccount(developer, hubIdText);
  if (!developer.appIds.includes(input.appId))
    throw new ValidationError(`App ${input.appId} is not an app of this developer account`, {
      context: { appId: [String(input.appId)] },
    });
  const lifetime = input.expiresInSeconds ?? accessTokenLifetimeSeconds;
  if (!Number.isSafeInteger(lifetime) || lifetime < 1 || lifetime > accessTokenLifetimeSeconds)
    throw new ValidationError(`expiresInSeconds must be a whole number from 1 to ${accessTokenLifetimeSeconds}`, {
      context: { expiresInSeconds: [String(input.expiresInSeconds)] },
    });
  const app = await findAppById(input.appId);
  if (!app)
    throw new ValidationError(`App ${input.appId} was created before apps could be installed without the browser`, {
      context: { appId: [String(input.appId)] },
    });
  const requested = new Set([...app.scopes, ...app.optionalScopes]);
  const scopes = [...new Set(input.scopes)];
  const outside = scopes.filter((scope) => !requested.has(scope));
  if (scopes.length === 0 || outside.length > 0)
    throw new ValidationError(
      scopes.length === 0
        ? 'scopes must name at least one of the scopes the app requests'
        : `The app does not request these scopes: ${outside.join(', ')}`,
      { context: { scopes: outside } },
    );
  const ofTheApp = scopes.filter(isClientCredentialsScope);
  if (ofTheApp.length > 0)
    throw new ValidationError(
      `These scopes are the app's own, granted by the client_credentials grant and never by an install: ${ofTheApp.join(', ')}`,
      { context: { scopes: ofTheApp } },
    );
  const owner = await ownerOfTestAccount(link.hubId);
  if (!owner) throw new NotFoundError(`No test account ${hubIdText}`);
  return installWithoutBrowser({
    app,
    hubId: link.hubId,
    hubDomain: link.domain,
    userId: owner.userId,
    userEmail: owner.email,
    scopes,
    ...(lifetime === accessTokenLifetimeSeconds ? {} : { accessTokenLifetimeSeconds: lifetime }),
  });
}
