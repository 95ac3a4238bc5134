import { uninstallAppHandler } from './uninstall-app';

export const handler = uninstallAppHandler('uninstallApp202603');
