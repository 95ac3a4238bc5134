import { httpHandler } from '../../shared/http/http-handler';
import { noContent } from '../../shared/http/responses';
import { uninstallApp } from '../../shared/oauth/uninstall';

/**
 * The app uninstall on both of HubSpot's paths (/appinstalls/v3 and /appinstalls/2026-03): each path
 * is its own route row (and function), built here from one definition. The bearer token names the
 * install; there is no body, and the answer is 204 without one.
 */
export function uninstallAppHandler(name: 'uninstallAppV3' | 'uninstallApp202603') {
  return httpHandler(name, {}, async ({ auth }) => {
    await uninstallApp({ hubId: auth.hubId, appId: auth.appId, installGeneration: auth.installGeneration ?? '' });
    return noContent();
  });
}
