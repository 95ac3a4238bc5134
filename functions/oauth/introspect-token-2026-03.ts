import { introspectTokenHandler } from './token-endpoints-2026-03';

export const handler = introspectTokenHandler('introspectToken202603');
