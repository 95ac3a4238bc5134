import { revokeTokenHandler } from './token-endpoints-2026-03';

export const handler = revokeTokenHandler('revokeToken202603');
