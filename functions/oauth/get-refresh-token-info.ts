import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { describeRefreshToken } from '../../shared/oauth/token-info';
import { tokenPath } from './token-path.schema';

export const handler = httpHandler('getRefreshTokenInfo', { path: tokenPath }, async ({ path }) =>
  ok(await describeRefreshToken(path.token), { 'cache-control': 'no-store' }),
);
