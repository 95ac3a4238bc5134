import { AppError, InternalError, OAuthError, RateLimitError, ServiceUnavailableError, UnsupportedMediaTypeError, ValidationError } from './errors';

export interface ErrorResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

const throttlingErrorNames = new Set([
  'ProvisionedThroughputExceededException', 'ThrottlingException', 'RequestLimitExceeded', 'LimitExceededException',
]);

const networkErrorCodes = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNABORTED', 'EHOSTUNREACH',
]);

/**
 * The SDK's retry middleware rebuilds a thrown value that is not an `Error` of its own realm (as in
 * jest's sandbox, or any non-Error rejection) as `new Error('AWS SDK error wrapper for <value>')`,
 * which drops `code`: the network failure then survives only in the message.
 */
const networkErrorMessage = new RegExp(`\\b(${[...networkErrorCodes].join('|')})\\b|socket hang up`);

interface ErrorLike {
  name?: unknown;
  code?: unknown;
  statusCode?: unknown;
  message?: unknown;
  $metadata?: { httpStatusCode?: number };
}

function asErrorLike(error: unknown): ErrorLike {
  return typeof error === 'object' && error !== null ? (error as ErrorLike) : {};
}

/** Maps anything thrown to one of our typed errors; unknown errors become a generic 500. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const like = asErrorLike(error);
  const name = typeof like.name === 'string' ? like.name : '';
  if (throttlingErrorNames.has(name)) {
    return new RateLimitError('You have reached your ten-secondly rolling limit. Retry after a short wait.', { context: { policyName: ['TEN_SECONDLY_ROLLING'] } });
  }
  const code = typeof like.code === 'string' ? like.code : '';
  const errorMessage = typeof like.message === 'string' ? like.message : '';
  if (networkErrorCodes.has(code) || name === 'TimeoutError' || name === 'RequestTimeout'
    || (code === '' && name === 'Error' && networkErrorMessage.test(errorMessage))
    || (like.$metadata?.httpStatusCode ?? 0) >= 500) {
    return new ServiceUnavailableError('The service is temporarily unavailable. Retry the request.');
  }
  // middy's body parsers throw http errors with a statusCode.
  if (typeof like.statusCode === 'number' && like.statusCode >= 400 && like.statusCode < 500) {
    const message = typeof like.message === 'string' ? like.message : 'Bad request';
    if (/malformed/i.test(message)) {
      return new ValidationError(`Invalid input: ${message}`, { context: { body: ['malformed'] } });
    }
    if (like.statusCode === 415) {
      return new UnsupportedMediaTypeError('Unsupported Content-Type for this endpoint', { context: { 'content-type': ['unsupported'] } });
    }
    return new ValidationError(message);
  }
  return new InternalError('internal error');
}

/** The only builder of error bodies; key order follows what HubSpot sends. */
export function errorBody(error: AppError, correlationId: string): ErrorResponse {
  if (error instanceof OAuthError) {
    return {
      statusCode: error.status,
      headers: { 'cache-control': 'no-store', ...error.headers },
      body: {
        status: error.hubspotStatus,
        message: error.message,
        error: error.oauthError,
        error_description: error.message,
        correlationId,
        category: error.category,
        ...(error.context ? { context: error.context } : {}),
      },
    };
  }
  const body: Record<string, unknown> = { status: 'error', message: error.message, correlationId };
  if (error.errors) body.errors = error.errors;
  if (error.context) body.context = error.context;
  body.category = error.category;
  if (error.subCategory) body.subCategory = error.subCategory;
  if (error.links) body.links = error.links;
  if (error instanceof RateLimitError) {
    // The official SDK retries a 429 only when it names this policy.
    body.policyName = 'TEN_SECONDLY_ROLLING';
    body.errorType = 'RATE_LIMIT';
  }
  return { statusCode: error.status, headers: { ...error.headers }, body };
}

/** RFC 6749 `error` for a token-endpoint failure that is not an OAuthError of its own. */
function oauthErrorCodeOf(error: AppError): string {
  if (error.status === 401) return 'invalid_client';
  // RFC 6749 4.1.2.1's codes for a server that cannot answer now; the status (and Retry-After) stay.
  if (error.status === 429 || error.status === 503) return 'temporarily_unavailable';
  if (error.status >= 500) return 'server_error';
  return 'invalid_request';
}

/**
 * The token endpoint's error body: every error carries RFC 6749's `error` and `error_description`
 * beside HubSpot's fields, so a standard OAuth client library reads any failure. A request the
 * endpoint cannot read (a body that is not form-encoded, a field too long) is `invalid_request`
 * with HTTP 400 (RFC 6749 5.2), not 415; rate limits and outages keep their status for retries.
 */
export function tokenEndpointErrorBody(error: AppError, correlationId: string): ErrorResponse {
  const mapped = errorBody(error, correlationId);
  if (error instanceof OAuthError) return mapped;
  const code = oauthErrorCodeOf(error);
  const { status, message, ...rest } = mapped.body;
  return {
    statusCode: code === 'invalid_request' ? 400 : mapped.statusCode,
    headers: { 'cache-control': 'no-store', ...mapped.headers },
    body: { status, message, error: code, error_description: message, ...rest },
  };
}
