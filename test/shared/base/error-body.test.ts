import { errorBody, tokenEndpointErrorBody } from '../../../shared/base/error-body';
import { toAppError } from '../../../shared/http/error-mapper';
import {
  InternalError,
  OAuthError,
  RateLimitError,
  ServiceUnavailableError,
  UnsupportedMediaTypeError,
  ValidationError,
} from '../../../shared/base/errors';

describe('toAppError', () => {
  it('maps a refused DynamoDB connection to 503', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8000'), { code: 'ECONNREFUSED' });

    expect(errorBody(toAppError(refused), 'c').statusCode).toBe(503);
  });

  it('maps a network failure the SDK rewrapped without its code to 503', () => {
    const rewrapped = new Error('AWS SDK error wrapper for Error: connect ECONNREFUSED 127.0.0.1:8000');

    expect(errorBody(toAppError(rewrapped), 'c').statusCode).toBe(503);
  });

  it('maps a rewrapped socket hang up to 503', () => {
    const rewrapped = new Error('AWS SDK error wrapper for Error: socket hang up');

    expect(errorBody(toAppError(rewrapped), 'c').statusCode).toBe(503);
  });

  it('keeps an unknown error a 500', () => {
    expect(errorBody(toAppError(new Error('boom')), 'c').statusCode).toBe(500);
  });

  it('maps ProvisionedThroughputExceededException to 429 RATE_LIMITS', () => {
    const throttled = Object.assign(new Error('throughput exceeded'), {
      name: 'ProvisionedThroughputExceededException',
    });

    expect(errorBody(toAppError(throttled), 'c')).toMatchObject({
      statusCode: 429,
      body: { category: 'RATE_LIMITS', policyName: 'TEN_SECONDLY_ROLLING' },
    });
  });
});

describe('tokenEndpointErrorBody', () => {
  it('answers a body that is not form-encoded as 400 invalid_request with the usual fields', () => {
    const mapped = tokenEndpointErrorBody(
      new UnsupportedMediaTypeError('Unsupported Content-Type for this endpoint', {
        context: { 'content-type': ['unsupported'] },
      }),
      'c-1',
    );

    expect(mapped.statusCode).toBe(400);
    expect(mapped.headers['cache-control']).toBe('no-store');
    expect(mapped.body).toEqual({
      status: 'error',
      message: 'Unsupported Content-Type for this endpoint',
      error: 'invalid_request',
      error_description: 'Unsupported Content-Type for this endpoint',
      correlationId: 'c-1',
      context: { 'content-type': ['unsupported'] },
      category: 'VALIDATION_ERROR',
    });
  });

  it('adds invalid_request to a validation error and keeps its errors and context', () => {
    const mapped = tokenEndpointErrorBody(
      new ValidationError('body.code must NOT have more than 200 characters', {
        context: { field: ['body.code'] },
        errors: [{ message: 'body.code must NOT have more than 200 characters', in: 'body.code' }],
      }),
      'c-2',
    );

    expect(mapped).toMatchObject({
      statusCode: 400,
      body: { error: 'invalid_request', context: { field: ['body.code'] }, errors: [{ in: 'body.code' }] },
    });
  });

  it('keeps 429 and 503 for retries, as temporarily_unavailable, and a 500 as server_error', () => {
    expect(tokenEndpointErrorBody(new RateLimitError('slow down'), 'c')).toMatchObject({
      statusCode: 429,
      body: { error: 'temporarily_unavailable', policyName: 'TEN_SECONDLY_ROLLING', category: 'RATE_LIMITS' },
    });
    expect(tokenEndpointErrorBody(new ServiceUnavailableError('retry'), 'c')).toMatchObject({
      statusCode: 503,
      body: { error: 'temporarily_unavailable' },
    });
    expect(tokenEndpointErrorBody(new InternalError('internal error'), 'c')).toMatchObject({
      statusCode: 500,
      body: { error: 'server_error', error_description: 'internal error' },
    });
  });

  it('leaves an OAuthError as errorBody builds it', () => {
    const error = new OAuthError('BAD_REFRESH_TOKEN', 'invalid_grant', 'refresh token is invalid, expired or revoked');

    expect(tokenEndpointErrorBody(error, 'c')).toEqual(errorBody(error, 'c'));
  });
});
