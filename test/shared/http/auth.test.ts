import { authenticate, authenticateRequest, withoutCredentials } from '../../../shared/http/auth';
import { authenticateDeveloperKey } from '../../../shared/http/developer-key-auth';
import type { Route } from '../../../shared/base/route-types';
import { routes as routeTable } from '../../../shared/routes';

const routes: readonly Route[] = routeTable;
import {
  ExpiredAuthenticationError,
  InvalidAuthenticationError,
  MissingScopesError,
} from '../../../shared/base/errors';
import { dynamoCallCounter } from '../../../shared/db/client';
import { advanceClock, resetClock } from '../../../shared/base/clock';
import { signTestAccessToken } from '../../support/harness';

afterEach(() => {
  resetClock();
});

function headersWith(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

describe('authenticate', () => {
  it('returns the app, hub, user, scopes, rate limits and install generation of a valid token', () => {
    const token = signTestAccessToken({
      appId: 11,
      hubId: 22,
      userId: 33,
      scopes: ['oauth', 'crm.objects.companies.read'],
      rateLimits: { tenSecondly: 40, searchPerSecond: 2 },
    });

    const auth = authenticate(headersWith(token), ['crm.objects.companies.read']);

    expect(auth).toEqual({
      appId: 11,
      hubId: 22,
      userId: 33,
      scopes: ['oauth', 'crm.objects.companies.read'],
      rateLimits: { tenSecondly: 40, searchPerSecond: 2 },
      installGeneration: '',
    });
  });

  it('makes zero DynamoDB calls to verify a token', () => {
    const token = signTestAccessToken({ appId: 1, hubId: 2, scopes: ['crm.objects.companies.read'] });
    dynamoCallCounter.reset();

    for (let index = 0; index < 100; index += 1) authenticate(headersWith(token), ['crm.objects.companies.read']);

    expect(dynamoCallCounter.totalApartFromRetries()).toBe(0);
  });

  it('rejects a missing Authorization header as INVALID_AUTHENTICATION', () => {
    expect(() => authenticate({}, ['crm.objects.companies.read'])).toThrow(InvalidAuthenticationError);
  });

  it.each([
    ['a non-bearer scheme', 'Basic abc'],
    ['an empty bearer', 'Bearer '],
    ['random text', 'Bearer not-a-token'],
    ['a token with a changed payload', 'tamper'],
    ['a truncated token', 'truncate'],
  ])('rejects %s as INVALID_AUTHENTICATION', (_label, value) => {
    const token = signTestAccessToken({ appId: 1, hubId: 2, scopes: ['oauth'] });
    const [payload = '', signature = ''] = token.split('.');
    const forged = `${Buffer.from(Buffer.from(payload, 'base64url').toString().replace('"h":2', '"h":3')).toString('base64url')}.${signature}`;
    const header =
      value === 'tamper' ? `Bearer ${forged}` : value === 'truncate' ? `Bearer ${token.slice(0, -5)}` : value;

    expect(() => authenticate({ authorization: header }, ['oauth'])).toThrow(InvalidAuthenticationError);
  });

  it("rejects an app token (client credentials) with an unknown token's error, before its scopes or expiry", () => {
    const forged = signTestAccessToken({ appId: 1, hubId: 2, scopes: ['oauth'] }).slice(0, -4);
    const appToken = signTestAccessToken({ kind: 'app', appId: 1, hubId: 0, userId: 0, scopes: ['oauth'] });
    const unknown = (() => {
      try {
        authenticate({ authorization: `Bearer ${forged}AAAA` }, ['oauth']);
      } catch (error) {
        return error;
      }
    })();

    expect(() => authenticate(headersWith(appToken), ['crm.objects.contacts.read'])).toThrow(
      new InvalidAuthenticationError((unknown as Error).message),
    );
    advanceClock(1801 * 1000);
    expect(() => authenticate(headersWith(appToken), ['oauth'])).toThrow(InvalidAuthenticationError);
  });

  it('rejects an expired token as EXPIRED_AUTHENTICATION with the expiry time in context', () => {
    const token = signTestAccessToken({ appId: 1, hubId: 2, scopes: ['oauth'], expiresInSeconds: 60 });
    advanceClock(90_000);

    let thrown: unknown;
    try {
      authenticate(headersWith(token), ['oauth']);
    } catch (error) {
      thrown = error;
    }

    expect(thrown).toBeInstanceOf(ExpiredAuthenticationError);
    expect((thrown as ExpiredAuthenticationError).message).toMatch(/expired 3\d second\(s\) ago/);
    expect((thrown as ExpiredAuthenticationError).context?.['expire time']?.[0]).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('rejects a token without any of the required scopes as MISSING_SCOPES naming them', () => {
    const token = signTestAccessToken({ appId: 1, hubId: 2, scopes: ['crm.objects.companies.read'] });

    let thrown: unknown;
    try {
      authenticate(headersWith(token), ['crm.objects.companies.write']);
    } catch (error) {
      thrown = error;
    }

    expect(thrown).toBeInstanceOf(MissingScopesError);
    expect((thrown as MissingScopesError).context).toEqual({ requiredGranularScopes: ['crm.objects.companies.write'] });
  });

  it('accepts any one of several allowed scopes', () => {
    const token = signTestAccessToken({ appId: 1, hubId: 2, scopes: ['crm.schemas.companies.read'] });

    expect(authenticate(headersWith(token), ['crm.objects.companies.read', 'crm.schemas.companies.read']).hubId).toBe(
      2,
    );
  });
});

describe('routes authenticated by the developer API key', () => {
  // The developer API key's part of a keyed row's chain (shared/http/route-parts.ts gives it to those rows).
  const keyChecks = { developerKey: authenticateDeveloperKey };
  const keyed = routes.filter(
    (route) => route.scopes !== 'public' && (route.auth === 'developerKey' || route.auth === 'developerKeyOrToken'),
  );

  it('are the timeline event-type and property routes (writes by the key alone) and the webhook routes', () => {
    expect(
      keyed
        .filter((route) => route.auth === 'developerKey')
        .map((route) => route.name)
        .sort(),
    ).toEqual([
      'batchUpdateWebhookSubscriptions',
      'configureWebhookSettings',
      'createTimelineEventType',
      'createTimelineEventTypeProperty',
      'createWebhookSubscription',
      'deleteTimelineEventType',
      'deleteTimelineEventTypeProperty',
      'deleteWebhookSettings',
      'deleteWebhookSubscription',
      'getWebhookSettings',
      'getWebhookSubscription',
      'listWebhookDeliveries',
      'listWebhookSubscriptions',
      'updateTimelineEventType',
      'updateTimelineEventTypeProperty',
      'updateWebhookSubscription',
    ]);
    expect(keyed.filter((route) => route.auth === 'developerKeyOrToken').every((route) => route.method === 'GET')).toBe(
      true,
    );
  });

  it.each(keyed.map((route) => [route.name, route] as const))(
    '%s names the app the key must own in its path',
    (_name, route) => {
      expect(route.path).toContain('/{appId}/');
    },
  );

  it("hides the key from the handler's query on keyed routes only", () => {
    const [keyRoute] = keyed;
    const tokenRoute = routes.find((route) => route.name === 'listObjects');
    if (!keyRoute || !tokenRoute) throw new Error('route table changed');

    expect(withoutCredentials(keyRoute, { hapikey: 'k', limit: '1' })).toEqual({ limit: '1' });
    expect(withoutCredentials(tokenRoute, { hapikey: 'k', limit: '1' })).toEqual({ hapikey: 'k', limit: '1' });
  });

  it("answers 401 for a missing or unknown key without reading more than the key's one item", async () => {
    const route = keyed.find((candidate) => candidate.auth === 'developerKey');
    if (!route) throw new Error('route table changed');

    await expect(authenticateRequest(route, {}, {}, keyChecks)).rejects.toThrow(InvalidAuthenticationError);
    dynamoCallCounter.reset();
    await expect(authenticateRequest(route, {}, { hapikey: 'na1-not-a-key' }, keyChecks)).rejects.toThrow(
      "This hapikey doesn't exist.",
    );
    expect(dynamoCallCounter.callsApartFromRetries()).toEqual({ GetItemCommand: 1 });
    dynamoCallCounter.reset();
    await expect(authenticateRequest(route, {}, { hapikey: 'x'.repeat(600) }, keyChecks)).rejects.toThrow(
      InvalidAuthenticationError,
    );
    expect(dynamoCallCounter.callsApartFromRetries()).toEqual({});
  });
});
