import { OAuthError } from '../base/errors';

/** Parameters that must never travel in a URL: proxies, access logs and browser history keep URLs. */
const bodyOnlyParameters = ['client_id', 'client_secret', 'code', 'code_verifier', 'refresh_token', 'token'] as const;

/**
 * Token endpoints take credentials, codes and tokens in the form body (or HTTP Basic) only:
 * any of them in the query string is 400 invalid_request naming the parameters.
 */
export function refuseCredentialsInQuery(rawQueryString: string): void {
  if (rawQueryString === '') return;
  const query = new URLSearchParams(rawQueryString);
  const present = bodyOnlyParameters.filter((name) => query.has(name));
  if (present.length > 0) {
    throw new OAuthError(
      'BAD_REQUEST',
      'invalid_request',
      `${present.join(', ')} must be sent in the form body, never in the query string`,
      { context: { query: [...present] } },
    );
  }
}
