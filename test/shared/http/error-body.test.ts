import { errorBody, toAppError } from '../../../shared/http/error-body';

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
    const throttled = Object.assign(new Error('throughput exceeded'), { name: 'ProvisionedThroughputExceededException' });

    expect(errorBody(toAppError(throttled), 'c')).toMatchObject({ statusCode: 429, body: { category: 'RATE_LIMITS', policyName: 'TEN_SECONDLY_ROLLING' } });
  });
});
