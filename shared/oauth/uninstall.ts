import { endInstall } from '../db/install-states';
import { nowMs } from '../base/clock';
import { InvalidAuthenticationError } from '../base/errors';
import { endedInstallMessage, forgetInstallState, rememberInstallState } from './install-status';

/** The install an access token acts for. */
export interface TokenInstall {
  hubId: number;
  appId: number;
  /** '' for the first install of the app in the account. */
  installGeneration: string;
}

/**
 * HubSpot's app uninstall (DELETE /appinstalls/v3/external-install): ends the install the token was
 * issued in. Its refresh tokens stop at once (the refresh grant reads the install state), its access
 * tokens within a minute on every function instance (at once on this one), webhooks for the account
 * stop with the install record, and token introspection and metadata call its tokens unknown.
 * Installing the app again through the consent pages starts a new install with new tokens. A token
 * whose install had already ended (a call racing the end, or an instance that has not yet seen it)
 * gets the 401 the auth step gives such tokens.
 */
export async function uninstallApp(install: TokenInstall): Promise<void> {
  const endedAt = new Date(nowMs()).toISOString();
  const outcome = await endInstall(install.hubId, install.appId, install.installGeneration, endedAt);
  if (outcome === 'not-live') {
    forgetInstallState(install.hubId, install.appId);
    throw new InvalidAuthenticationError(endedInstallMessage);
  }
  rememberInstallState(install.hubId, install.appId, {
    hubId: install.hubId,
    appId: install.appId,
    generation: install.installGeneration,
    endedAt,
  });
}
