import httpUrlencodeBodyParser from '@middy/http-urlencode-body-parser';
import { chainPartsOf } from '../base/route-types';
import { findRoute, type RouteName } from '../routes';
import { checkAccessToken } from './auth';
import { checkAppToken } from './app-token-auth';
import { authenticateDeveloperKey } from './developer-key-auth';
import { jsonBodyParser } from './json-body-parser';
import {
  htmlErrorResponse,
  injectFaults,
  jsonErrorResponse,
  limitRate,
  oauthErrorResponse,
  type RouteParts,
} from './middlewares';
import { loadPathTypes } from './path-object-types';
import { compileValidator } from './validation';

const errorResponses = { json: jsonErrorResponse, oauth: oauthErrorResponse, html: htmlErrorResponse };

/**
 * A row's chain parts run from source (tests, npm start, the build step): `#route-parts` resolves
 * here (package.json `imports`), and the parts are picked by the row (chainPartsOf) when the
 * handler loads, as on a stage with the test-account controls. A function's bundle resolves the
 * import to the module bin/build-validators.ts writes for its route instead, which imports only its
 * row's parts.
 */
export function routePartsOf(name: RouteName): RouteParts {
  const row = findRoute(name);
  const parts = chainPartsOf(row, { sandboxControls: true });
  return {
    row,
    ...(parts.bodyParser === 'json' ? { bodyParser: jsonBodyParser } : {}),
    ...(parts.bodyParser === 'urlencoded' ? { bodyParser: httpUrlencodeBodyParser } : {}),
    errorResponse: errorResponses[parts.errorFormat],
    ...(parts.accessTokens ? { accessToken: checkAccessToken } : {}),
    ...(parts.rateLimit ? { limitRate } : {}),
    ...(parts.faults ? { injectFaults } : {}),
    ...(parts.developerKeys ? { developerKey: authenticateDeveloperKey } : {}),
    ...(parts.appTokens ? { appToken: checkAppToken } : {}),
    ...(parts.pathTypes ? { typeLoader: loadPathTypes } : {}),
    validator: (schema, location) => compileValidator(schema, location, row.name),
  };
}
