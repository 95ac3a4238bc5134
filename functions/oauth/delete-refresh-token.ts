import { httpHandler } from '../../shared/http/http-handler';
import { noContent } from '../../shared/http/responses';
import { removeRefreshToken } from '../../shared/oauth/token-info';
import { tokenPath } from './token-path.schema';

export const handler = httpHandler('deleteRefreshToken', { path: tokenPath }, async ({ path }) => {
  await removeRefreshToken(path.token);
  return noContent();
});
