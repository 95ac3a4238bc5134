import { isOAuthError, NotFoundError, RateLimitError, type AppError } from './errors';

/**
 * The one builder of error bodies: the HTTP edge's error responses (shared/http/middlewares.ts),
 * the token endpoint's, the per-input errors of batch responses (shared/records/batch-records.ts)
 * and the local gateway's own answers (local/local-gateway.ts) all come from here.
 */

export interface ErrorResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/** The error object of a failed request; key order follows what HubSpot sends. */
export function errorBody(error: AppError, correlationId: string): ErrorResponse {
  if (isOAuthError(error)) {
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
        status: 'error',
        message: error.message,
        errorType: 'RATE_LIMIT',
        correlationId,
        policyName: error.policyName,
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
  if (isOAuthError(error)) return mapped;
  const code = oauthErrorCodeOf(error);
  const { status, message, ...rest } = mapped.body;
  return {
    statusCode: code === 'invalid_request' ? 400 : mapped.statusCode,
    headers: { 'cache-control': 'no-store', ...mapped.headers },
    body: { status, message, error: code, error_description: message, ...rest },
  };
}

/** HubSpot's StandardError, one per failed input of a batch: every field present, even when empty. */
export interface BatchError {
  status: 'error';
  category: string;
  subCategory?: string;
  message: string;
  context: Record<string, string[]>;
  errors: unknown[];
  links: Record<string, string>;
  objectWriteTraceId?: string;
}

/** The error of one batch input: no correlation id (the response has one), the input's trace id when it sent one. */
export function batchErrorBody(error: AppError, objectWriteTraceId?: string): BatchError {
  return {
    status: 'error',
    category: error.category,
    ...(error.subCategory ? { subCategory: error.subCategory } : {}),
    message: error.message,
    context: error.context ?? {},
    errors: error.errors ?? [],
    links: error.links ?? {},
    ...(objectWriteTraceId ? { objectWriteTraceId } : {}),
  };
}

/** The batch error naming the inputs whose records do not exist. */
export function batchNotFoundError(ids: string[]): BatchError {
  return batchErrorBody(
    new NotFoundError(`Could not find record${ids.length > 1 ? 's' : ''} with ids ${ids.join(', ')}`, {
      context: { ids },
    }),
  );
}
