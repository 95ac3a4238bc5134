import type { Context } from 'aws-lambda';
import { httpHandler } from '../../../shared/http/http-handler';

/**
 * middy answers a handler that runs into the function's time just before the runtime would stop it
 * (its early timeout); that answer is the error object's 503, and a client is told when to retry.
 */
function contextWithRemainingMs(remainingMs: number): Context {
  const deadline = Date.now() + remainingMs;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: 'getAccessTokenInfo',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:local:000000000000:function:getAccessTokenInfo',
    memoryLimitInMB: '512',
    awsRequestId: 'early-timeout-test',
    logGroupName: '/aws/lambda/getAccessTokenInfo',
    logStreamName: 'test',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

const event = {
  version: '2.0',
  routeKey: 'GET /oauth/v1/access-tokens/{token}',
  rawPath: '/oauth/v1/access-tokens/some-token',
  rawQueryString: '',
  headers: {},
  pathParameters: { token: 'some-token' },
  requestContext: { http: { method: 'GET', path: '/oauth/v1/access-tokens/some-token' }, stage: '$default' },
  isBase64Encoded: false,
};

describe('the early timeout', () => {
  it('answers 503 SERVICE_UNAVAILABLE with Retry-After when the handler outlasts the function time', async () => {
    let release: () => void = () => undefined;
    const pending = new Promise<void>((resolve) => {
      release = resolve;
    });
    // A handler that finishes only when the test lets it: the early timeout always comes first.
    const handler = httpHandler('getAccessTokenInfo', {}, async () => {
      await pending;
      return { statusCode: 200, body: {} };
    });

    const answer = (await handler(event as never, contextWithRemainingMs(200))) as {
      statusCode: number;
      headers: Record<string, string>;
      body: string;
    };
    release();

    expect(answer.statusCode).toBe(503);
    expect(answer.headers['retry-after']).toBe('1');
    expect(JSON.parse(answer.body)).toMatchObject({
      status: 'error',
      message: 'The request did not finish within the function time. Retry the request.',
      category: 'SERVICE_UNAVAILABLE',
    });
  });
});
