import { issueTokenHandler } from './token-endpoints-2026-03';

export const handler = issueTokenHandler('issueTokenV3');
