import { freezeClock, advanceClock, resetClock } from '../../../shared/base/clock';
import { errorBody } from '../../../shared/base/error-body';
import { RateLimitError } from '../../../shared/base/errors';
import { limitCall } from '../../../shared/http/rate-limit';
import type { AuthContext } from '../../../shared/http/auth';
import type { Route } from '../../../shared/base/route-types';

/** The search limit a future search row switches on with `rateLimit: 'search'` (the route itself comes with the search issue). */
const searchRow: Route = {
  name: 'searchObjects',
  method: 'POST',
  path: '/crm/v3/objects/{objectType}/search',
  entry: 'functions/not-found.ts',
  scopes: ['crm.objects.companies.read'],
  body: 'json',
  table: 'read',
  partitions: ['hubs'],
  rateLimit: 'search',
};
const installRow: Route = { ...searchRow, name: 'getObject', rateLimit: undefined };

let nextHub = Math.floor(Math.random() * 1e9);
function authFor(limits: { tenSecondly: number; searchPerSecond: number }): AuthContext {
  nextHub += 1;
  return { appId: 1, hubId: nextHub, userId: 1, scopes: ['crm.objects.companies.read'], rateLimits: limits };
}

async function outcome(route: Route, auth: AuthContext): Promise<number | RateLimitError> {
  try {
    return (await limitCall(route, auth)) === undefined ? -1 : 200;
  } catch (error) {
    if (error instanceof RateLimitError) return error;
    throw error;
  }
}

afterEach(() => resetClock());

describe('the search limiter (rateLimit: search on a route row)', () => {
  it('allows M per second per account, then answers the secondly 429 without the ten-secondly headers', async () => {
    freezeClock();
    const auth = authFor({ tenSecondly: 1, searchPerSecond: 5 });

    const results = [];
    for (let index = 0; index < 6; index += 1) results.push(await outcome(searchRow, auth));
    advanceClock(1_100);
    const nextSecond = await outcome(searchRow, auth);

    expect(results.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    const refused = results[5];
    expect(refused).toBeInstanceOf(RateLimitError);
    const body = errorBody(refused as RateLimitError, 'c-1');
    expect(body.statusCode).toBe(429);
    expect(body.body).toEqual({
      status: 'error',
      message: 'You have reached your secondly limit.',
      errorType: 'RATE_LIMIT',
      correlationId: 'c-1',
      policyName: 'SECONDLY',
      category: 'RATE_LIMITS',
    });
    expect(body.headers).toEqual({});
    expect(nextSecond).toBe(200);
  });

  it('is not counted in the install limit, and the install limit does not count it', async () => {
    freezeClock();
    const auth = authFor({ tenSecondly: 2, searchPerSecond: 3 });

    const searches = [await outcome(searchRow, auth), await outcome(searchRow, auth), await outcome(searchRow, auth)];
    const reads = [await outcome(installRow, auth), await outcome(installRow, auth)];

    expect(searches).toEqual([200, 200, 200]);
    expect(reads).toEqual([200, 200]);
  });

  it('does not limit a caller without access-token limits (a developer key) or a row with rateLimit none', async () => {
    const developer: AuthContext = { appId: 1, hubId: 1, userId: 0, scopes: [] };

    expect(await limitCall(installRow, developer)).toBeUndefined();
    expect(
      await limitCall({ ...installRow, rateLimit: 'none' }, authFor({ tenSecondly: 5, searchPerSecond: 5 })),
    ).toBeUndefined();
    expect(await limitCall(searchRow, authFor({ tenSecondly: 5, searchPerSecond: 0 }))).toBeUndefined();
  });
});
