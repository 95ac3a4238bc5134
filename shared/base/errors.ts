/**
 * Typed errors that any layer may throw: the base of the layering (shared/db, the domain modules
 * and shared/http all import it; it imports nothing). errorBody() in error-body.ts is the only code
 * that turns one into an error body. Nothing here knows middy or API Gateway.
 */
export interface ErrorDetail {
  message: string;
  code?: string;
  in?: string;
  subCategory?: string;
  context?: Record<string, string[]>;
}

export interface AppErrorOptions {
  subCategory?: string;
  context?: Record<string, string[]>;
  errors?: ErrorDetail[];
  links?: Record<string, string>;
  headers?: Record<string, string>;
  /** What went wrong underneath (a DynamoDB error, a parser's error); logged, never sent to the client. */
  cause?: unknown;
}

export abstract class AppError extends Error {
  abstract readonly status: number;
  abstract readonly category: string;
  readonly subCategory?: string;
  readonly context?: Record<string, string[]>;
  readonly errors?: ErrorDetail[];
  readonly links?: Record<string, string>;
  readonly headers?: Record<string, string>;

  constructor(message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.subCategory = options.subCategory;
    this.context = options.context;
    this.errors = options.errors;
    this.links = options.links;
    this.headers = options.headers;
  }
}

export class ValidationError extends AppError {
  readonly status = 400;
  readonly category = 'VALIDATION_ERROR';
}

export class UnsupportedMediaTypeError extends AppError {
  readonly status = 415;
  readonly category = 'VALIDATION_ERROR';
}

/** A request head over the gateway's limit (the local gateway; API Gateway has its own). */
export class RequestHeaderFieldsTooLargeError extends AppError {
  readonly status = 431;
  readonly category = 'VALIDATION_ERROR';
}

export class InvalidAuthenticationError extends AppError {
  readonly status = 401;
  readonly category = 'INVALID_AUTHENTICATION';
}

export class ExpiredAuthenticationError extends AppError {
  readonly status = 401;
  readonly category = 'EXPIRED_AUTHENTICATION';
}

export class MissingScopesError extends AppError {
  readonly status = 403;
  readonly category = 'MISSING_SCOPES';
}

/** The caller is authenticated but the resource belongs to another app. */
export class ForbiddenError extends AppError {
  readonly status = 403;
  readonly category = 'FORBIDDEN';
}

export class NotFoundError extends AppError {
  readonly status = 404;
  readonly category = 'OBJECT_NOT_FOUND';
}

export class ConflictError extends AppError {
  readonly status = 409;
  readonly category = 'CONFLICT';
}

export class ObjectAlreadyExistsError extends AppError {
  readonly status = 409;
  readonly category = 'OBJECT_ALREADY_EXISTS';
}

export class PayloadTooLargeError extends AppError {
  readonly status = 413;
  readonly category = 'VALIDATION_ERROR';
}

/** HubSpot's answer to a merge past its limit of ids on one record (its error-handling page: 414). */
export class TooManyIdentitiesError extends AppError {
  readonly status = 414;
  readonly category = 'VALIDATION_ERROR';
}

export class RateLimitError extends AppError {
  readonly status = 429;
  readonly category = 'RATE_LIMITS';
  /** HubSpot's policy names: the official SDK retries TEN_SECONDLY_ROLLING (and the secondly message). */
  readonly policyName: string;

  constructor(message: string, options: AppErrorOptions & { policyName?: string } = {}) {
    super(message, options);
    this.policyName = options.policyName ?? 'TEN_SECONDLY_ROLLING';
  }
}

export class ServiceUnavailableError extends AppError {
  readonly status = 503;
  readonly category = 'SERVICE_UNAVAILABLE';
}

export class InternalError extends AppError {
  readonly status = 500;
  readonly category = 'INTERNAL_ERROR';
}

/**
 * Token endpoint failures: HubSpot's legacy `status` code plus the RFC 6749 `error`,
 * so HubSpot SDKs and standard OAuth client libraries both understand the body.
 */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unsupported_grant_type'
  | 'invalid_scope';

export class OAuthError extends AppError {
  readonly status: number;
  readonly category: string;

  constructor(
    readonly hubspotStatus: string,
    readonly oauthError: OAuthErrorCode,
    message: string,
    options: AppErrorOptions = {},
  ) {
    super(message, options);
    this.status = oauthError === 'invalid_client' ? 401 : 400;
    this.category = oauthError === 'invalid_client' ? 'INVALID_AUTHENTICATION' : 'VALIDATION_ERROR';
  }
}

/**
 * Whether an error is an OAuthError, told by its `oauthError` field: a bundle whose code throws no
 * OAuthError then holds no OAuthError class to test against.
 */
export function isOAuthError(error: AppError): error is OAuthError {
  return 'oauthError' in error;
}
