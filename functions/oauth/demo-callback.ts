import { baseUrlOf } from '../../shared/http/base-url';
import { httpHandler } from '../../shared/http/http-handler';
import { htmlPage } from '../../shared/http/responses';
import { renderDemoCallbackPage } from '../../shared/oauth/pages';

const demoCallbackQuery = {
  type: 'object',
  properties: {
    code: { type: 'string', maxLength: 200 },
    state: { type: 'string', maxLength: 2000 },
    error: { type: 'string', maxLength: 200 },
    error_description: { type: 'string', maxLength: 2000 },
  },
} as const;

/** Where the seeded demo app redirects: shows the code and the exact command to exchange it. */
export const handler = httpHandler('demoCallback', { query: demoCallbackQuery }, async ({ query, requestContext }) =>
  htmlPage(query.error ? 400 : 200, renderDemoCallbackPage(baseUrlOf(requestContext), query)),
);
