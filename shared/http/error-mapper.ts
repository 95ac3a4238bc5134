import { DatabaseThrottledError, WriteHeldError } from '../db/repository-errors';
import {
  AppError,
  InternalError,
  InvalidAuthenticationError,
  RateLimitError,
  ServiceUnavailableError,
  UnsupportedMediaTypeError,
  ValidationError,
} from '../base/errors';

/**
 * The edge's reading of anything thrown: our typed errors pass through; AWS SDK throttling and
 * outages, middy's body-parser errors and everything else become the typed error the client gets,
 * with the original kept as `cause` for the log.
 */
const throttlingErrorNames = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'LimitExceededException',
]);

const networkErrorCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNABORTED',
  'EHOSTUNREACH',
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
  if (error instanceof WriteHeldError) {
    return error.mode === 'reset'
      ? new ServiceUnavailableError('The test account is being reset. Retry the request when the reset is done.', {
          headers: { 'retry-after': '1' },
          cause: error,
        })
      : new InvalidAuthenticationError('The test account is being deleted: its installs have ended.', { cause: error });
  }
  if (error instanceof DatabaseThrottledError || throttlingErrorNames.has(name)) {
    return new RateLimitError('You have reached your ten-secondly rolling limit. Retry after a short wait.', {
      context: { policyName: ['TEN_SECONDLY_ROLLING'] },
      cause: error,
    });
  }
  const code = typeof like.code === 'string' ? like.code : '';
  const errorMessage = typeof like.message === 'string' ? like.message : '';
  if (
    networkErrorCodes.has(code) ||
    name === 'TimeoutError' ||
    name === 'RequestTimeout' ||
    (code === '' && name === 'Error' && networkErrorMessage.test(errorMessage)) ||
    (like.$metadata?.httpStatusCode ?? 0) >= 500
  ) {
    return new ServiceUnavailableError('The service is temporarily unavailable. Retry the request.', {
      headers: { 'retry-after': '1' },
      cause: error,
    });
  }
  // middy's body parsers throw http errors with a statusCode.
  if (typeof like.statusCode === 'number' && like.statusCode >= 400 && like.statusCode < 500) {
    const message = typeof like.message === 'string' ? like.message : 'Bad request';
    if (/malformed/i.test(message)) {
      return new ValidationError(`Invalid input: ${message}`, { context: { body: ['malformed'] }, cause: error });
    }
    if (like.statusCode === 415) {
      return new UnsupportedMediaTypeError('Unsupported Content-Type for this endpoint', {
        context: { 'content-type': ['unsupported'] },
        cause: error,
      });
    }
    return new ValidationError(message, { cause: error });
  }
  return new InternalError('internal error', { cause: error });
}
