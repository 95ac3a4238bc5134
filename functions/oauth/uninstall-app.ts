import { httpHandler } from '../../shared/http/http-handler';
import { noContent } from '../../shared/http/responses';
import { uninstallApp } from '../../shared/oauth/uninstall';

/**
 * The app uninstall on both of HubSpot's paths (/appinstalls/2026-03 and its /appinstalls/v3 alias).
 * The bearer token names the install; there is no body, and the answer is 204 without one.
 */
export const handler = httpHandler('uninstallApp202603', {}, async ({ auth }) => {
  await uninstallApp({ hubId: auth.hubId, appId: auth.appId, installGeneration: auth.installGeneration ?? '' });
  return noContent();
});
