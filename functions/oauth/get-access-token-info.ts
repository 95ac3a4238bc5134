import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { describeAccessToken } from '../../shared/oauth/token-info';
import { tokenPath } from './token-path.schema';

export const handler = httpHandler('getAccessTokenInfo', { path: tokenPath }, async ({ path }) =>
  ok(await describeAccessToken(path.token), { 'cache-control': 'no-store' }),
);
