import { uninstallAppHandler } from './uninstall-app';

export const handler = uninstallAppHandler('uninstallAppV3');
