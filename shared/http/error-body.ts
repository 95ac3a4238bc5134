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
  if (error instanceof RateLimitError) {
    // HubSpot's 429 body; the official SDK retries a 429 only when it names TEN_SECONDLY_ROLLING (or the secondly message).
    return {
      statusCode: error.status,
      headers: { ...error.headers },
      body: {
        status: 'error', message: error.message, errorType: 'RATE_LIMIT', correlationId, policyName: error.policyName,
        category: error.category, ...(error.context ? { context: error.context } : {}),
      },
    };
  }
  const body: Record<string, unknown> = { status: 'error', message: error.message, correlationId };
  if (error.errors) body.errors = error.errors;
  if (error.context) body.context = error.context;
  body.category = error.category;
  if (error.subCategory) body.subCategory = error.subCategory;
  if (error.links) body.links = error.links;
  return { statusCode: error.status, headers: { ...error.headers }, body };
}
