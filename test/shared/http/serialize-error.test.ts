import { errorBody } from '../../../shared/base/error-body';
import { NotFoundError, ServiceUnavailableError } from '../../../shared/base/errors';
import { toAppError } from '../../../shared/http/error-mapper';
import { serializeError } from '../../../shared/http/serialize';

/** Every 503 the service answers asks to be retried (Retry-After), whichever code path built it. */
describe('serializeError', () => {
  const serialized = (error: Error) => serializeError(errorBody(toAppError(error), 'correlation'), 'correlation');

  it('gives a 503 without a Retry-After of its own `Retry-After: 1`', () => {
    const answer = serialized(new ServiceUnavailableError('The search index is busy. Retry the request.'));
    expect(answer.statusCode).toBe(503);
    expect(answer.headers?.['retry-after']).toBe('1');
  });

  it("keeps a 503's own Retry-After", () => {
    const answer = serialized(new ServiceUnavailableError('later', { headers: { 'retry-after': '5' } }));
    expect(answer.headers?.['retry-after']).toBe('5');
  });

  it('gives an AWS outage (a 5xx from DynamoDB) Retry-After too, and other statuses none', () => {
    const outage = Object.assign(new Error('internal'), {
      name: 'InternalServerError',
      $metadata: { httpStatusCode: 500 },
    });
    expect(serialized(outage)).toMatchObject({ statusCode: 503, headers: { 'retry-after': '1' } });
    expect(serialized(new NotFoundError('no such record')).headers?.['retry-after']).toBeUndefined();
  });
});
