import type { DeveloperApiKey } from '../db/developers';
import { ForbiddenError, InvalidAuthenticationError } from '../base/errors';
import type { Route } from '../base/route-types';
import { verifyDeveloperApiKey } from '../oauth/developer-keys';
import {
  developerApiKeyParameter,
  type DeveloperAccountAuthContext,
  type DeveloperAuthContext,
  type RequestCredentials,
} from './auth';

const missingDeveloperKeyMessage =
  "This API needs the developer API key of the app's developer account as the hapikey query parameter; OAuth access tokens cannot call it.";

/** Checks the presented key (401 when missing or unknown); which app it may act for is checked once the path is valid. */
async function requireDeveloperKey(presented: string | undefined): Promise<DeveloperApiKey> {
  if (presented === undefined || presented === '') throw new InvalidAuthenticationError(missingDeveloperKeyMessage);
  const key = await verifyDeveloperApiKey(presented);
  if (!key) throw new InvalidAuthenticationError("This hapikey doesn't exist.");
  return key;
}

/** 403 for a valid key of a developer account that does not own the path's app (whether that app exists or not). */
function requireAppOfDeveloper(key: DeveloperApiKey, rawAppId: string | undefined): DeveloperAuthContext {
  const appId = Number(rawAppId);
  if (rawAppId !== undefined && /^[0-9]{1,15}$/.test(rawAppId) && key.appIds.includes(appId))
    return { developerId: key.developerId, appId };
  throw new ForbiddenError(
    `This developer API key cannot manage application ${String(rawAppId)}: it belongs to a developer account that does not own it.`,
    {
      context: { applicationId: [String(rawAppId)] },
    },
  );
}

/**
 * The developer API key's part of a row's auth (CredentialChecks, shared/http/auth.ts): a row
 * acting for the key's developer account ('developerAccount'), or for the path's app
 * ('developerKey', and 'developerKeyOrToken' when the request carries `hapikey`), is judged by the
 * key; otherwise undefined, and the access token judges the request.
 */
export async function authenticateDeveloperKey(
  route: Route,
  query: Record<string, string | undefined>,
): Promise<RequestCredentials | undefined> {
  const mode = route.auth ?? 'token';
  const presentedKey = query[developerApiKeyParameter];
  if (mode === 'developerAccount') {
    const key = await requireDeveloperKey(presentedKey);
    const account: DeveloperAccountAuthContext = { developerId: key.developerId, appIds: key.appIds };
    return { forPath: () => account };
  }
  if (mode === 'developerKey' || (mode === 'developerKeyOrToken' && presentedKey !== undefined)) {
    const key = await requireDeveloperKey(presentedKey);
    return { forPath: (path) => requireAppOfDeveloper(key, path.appId) };
  }
  return undefined;
}
