import { installRecorder, recordCommands, type RecordedCommand } from '../../../bench/dynamo-recorder';
import { freezeClock } from '../../../shared/base/clock';
import type { Scope } from '../../../shared/oauth/scopes';
import { routeSpellings } from '../../../shared/routes';
import { isRateLimited, type RouteSpelling } from '../../../shared/base/route-types';
import { bearer, install, jsonOf, signTestAccessToken, useTestGateway } from '../../support/harness';
import { fixtureOf, missing, paramValues, type World } from '../../support/route-fixtures';

/**
 * A call refused by the rate limit does no backend work beyond the
 * limiter's own update, on every route of the table and every spelling of its path (reads included:
 * a refused search does not run in full and then have its answer replaced), and never has its
 * body parsed; a call that fails parsing or validation is counted and carries the
 * X-HubSpot-RateLimit-* headers like any other.
 */
const gateway = useTestGateway();
const limited: readonly RouteSpelling[] = routeSpellings.filter((route) => isRateLimited(route));
const companies = '/crm/v3/objects/companies';

beforeAll(() => {
  installRecorder();
});

/** Values for paths and bodies: the refused calls never reach a record, so none needs to exist. */
const world: World = {
  appId: 0,
  companyId: missing.companyId,
  companyDomain: 'refused.example',
  eventTypeId: Number(missing.eventTypeId),
  propertyId: Number(missing.propertyId),
  eventId: missing.eventId,
  subscriptionId: missing.subscriptionId,
  ownerDomains: {
    createObject: 'a.refused.example',
    batchCreateObjects: 'b.refused.example',
    batchUpsertObjects: 'c.refused.example',
  },
  ownerEventIds: {
    createTimelineEvent: 'e1',
    putTimelineEvent: 'e2',
    createTimelineEventBatch: 'e3',
    putTimelineEventBatch: 'e4',
  },
  customPropertyName: 'refused_property',
  labelName: 'Refused label',
  groupName: 'refusedgroup',
  labelTypeId: 1000,
  strangerCompanyId: missing.companyId,
  fresh: 'refused',
  refreshToken: 'none',
  accessToken: 'none',
  clientId: 'none',
  clientSecret: 'none',
  userEmail: 'none@example.com',
  password: 'none',
  ownerId: missing.ownerId,
  ownerUserId: missing.ownerId,
  pipelineId: missing.pipelineId,
  stageId: missing.stageId,
  schemaType: missing.schemaType,
  listId: missing.listId,
  listName: missing.listName,
  sourceListId: missing.listId,
  folderId: missing.folderId,
  schemaAssociationId: missing.schemaAssociationId,
  testAccountHubId: missing.hubId,
  faultId: missing.faultId,
  journalSubscriptionId: missing.journalSubscriptionId,
  journalFilterId: missing.journalFilterId,
  journalPortalId: missing.hubId,
  journalProperty: 'refused_property',
  appToken: 'none',
};

let nextHubId = 70_000_000 + Math.floor(Math.random() * 1_000_000) * 10;

interface Caller {
  appId: number;
  hubId: number;
  token: string;
}

/** A token of a fresh account whose limits are 1 call per 10 s and 1 search per second, with the route's scopes. */
function limitedCaller(route: RouteSpelling): Caller {
  nextHubId += 1;
  const appId = 1_000_000 + (nextHubId % 1000);
  const scopes = (route.scopes === 'public' ? [] : route.scopes) as Scope[];
  return {
    appId,
    hubId: nextHubId,
    token: signTestAccessToken({ appId, hubId: nextHubId, scopes, rateLimits: { tenSecondly: 1, searchPerSecond: 1 } }),
  };
}

/**
 * Spends the one call the window allows with the same request (its answer does not matter). A row
 * that ends the caller's install (the uninstall) would leave the second call a 401, so it spends the
 * limit with a read of the same app and account instead (the limit is counted per app and account).
 */
async function spendTheLimit(route: RouteSpelling, caller: Caller): Promise<void> {
  const spender = fixtureOf(route).endsCallersInstall
    ? {
        route: limited.find((row) => row.name === 'listObjects') as RouteSpelling,
        caller: {
          appId: caller.appId,
          hubId: caller.hubId,
          token: signTestAccessToken({
            appId: caller.appId,
            hubId: caller.hubId,
            scopes: ['crm.objects.companies.read'],
            rateLimits: { tenSecondly: 1, searchPerSecond: 1 },
          }),
        },
      }
    : { route, caller };
  const { url, init } = requestOf(spender.route, spender.caller);
  const response = await fetch(url, init);
  await response.arrayBuffer();
  if (response.status === 429) throw new Error(`${route.spelling}: the first call of a fresh account was refused`);
}

function requestOf(route: RouteSpelling, { appId, token }: Caller, body?: string): { url: string; init: RequestInit } {
  const values = { ...paramValues(world), appId: String(appId) };
  const path = route.path.replace(/\{([^}]+)\}/g, (_whole, name: string) =>
    encodeURIComponent(values[name as keyof typeof values] ?? ''),
  );
  const validBody = route.body === 'json' ? JSON.stringify(fixtureOf(route).validBody?.(world) ?? {}) : undefined;
  const sent = body ?? validBody;
  return {
    url: `${gateway.baseUrl}${path}`,
    init: {
      method: route.method === 'ANY' ? 'POST' : route.method,
      headers: { ...bearer(token), ...(sent === undefined ? {} : { 'content-type': 'application/json' }) },
      body: sent,
    },
  };
}

const isLimiterUpdate = (command: RecordedCommand) =>
  command.commandClass.name === 'UpdateCommand' &&
  String((command.input.Key as { pk?: unknown } | undefined)?.pk).startsWith('LIMIT#');

describe('a call refused by the rate limit', () => {
  it.each(limited.map((route) => [route.spelling, route] as const))(
    "%s: 429 with no DynamoDB call but the limiter's updates",
    async (_name, route) => {
      const caller = limitedCaller(route);
      freezeClock(); // the search window is 1 s: however slow the machine, the refused call lands in it
      await spendTheLimit(route, caller);

      const { url, init } = requestOf(route, caller);
      const { result: response, commands } = await recordCommands(async () => {
        const answer = await fetch(url, init);
        return { status: answer.status, body: await jsonOf<{ category: string }>(answer) };
      });

      expect(response).toMatchObject({ status: 429, body: { category: 'RATE_LIMITS' } });
      expect(commands.length).toBeGreaterThan(0);
      expect(
        commands.filter((command) => !isLimiterUpdate(command)).map((command) => command.commandClass.name),
      ).toEqual([]);
    },
  );

  it('never has its body parsed: malformed JSON over the limit is a 429, not a 400', async () => {
    const route = limited.find((row) => row.name === 'createObject') as RouteSpelling;
    const caller = limitedCaller(route);
    freezeClock();
    await spendTheLimit(route, caller);

    const { url, init } = requestOf(route, caller, '{"properties": {"name": "Refused"');
    const response = await fetch(url, init);

    expect(response.status).toBe(429);
    expect(response.headers.get('x-hubspot-ratelimit-remaining')).toBe('0');
  });
});

describe('a call with a valid token that fails parsing or validation', () => {
  it.each(limited.filter((route) => route.body === 'json').map((route) => [route.spelling, route] as const))(
    '%s: malformed JSON is a 400 that counts against the limit (the next call is refused)',
    async (_name, route) => {
      const caller = limitedCaller(route);
      freezeClock();

      const malformed = requestOf(route, caller, '{"not json');
      const invalid = await fetch(malformed.url, malformed.init);
      const invalidBody = await jsonOf(invalid);
      const valid = requestOf(route, caller);
      const next = await fetch(valid.url, valid.init);
      await next.arrayBuffer();

      expect({ status: invalid.status, category: invalidBody.category }).toEqual({
        status: 400,
        category: 'VALIDATION_ERROR',
      });
      if (route.rateLimit !== 'search') {
        expect(invalid.headers.get('x-hubspot-ratelimit-max')).toBe('1');
        expect(invalid.headers.get('x-hubspot-ratelimit-remaining')).toBe('0');
      }
      expect(next.status).toBe(429);
    },
  );

  it('carries the rate-limit headers on a body that fails the schema, and is counted', async () => {
    const installed = await install(gateway, { limits: { tenSecondlyLimit: 5 } });
    const post = (body: unknown) =>
      fetch(`${gateway.baseUrl}${companies}`, {
        method: 'POST',
        headers: { ...bearer(installed.accessToken), 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });

    const invalid = await post({ properties: { name: { nested: 'object' } } });
    const invalidBody = await jsonOf(invalid);
    const next = await fetch(`${gateway.baseUrl}${companies}?limit=1`, { headers: bearer(installed.accessToken) });

    expect(invalid.status).toBe(400);
    expect(invalidBody.context).toEqual({ field: ['body.properties.name'] });
    expect(invalid.headers.get('x-hubspot-ratelimit-interval-milliseconds')).toBe('10000');
    expect(invalid.headers.get('x-hubspot-ratelimit-max')).toBe('5');
    expect(invalid.headers.get('x-hubspot-ratelimit-remaining')).toBe('4');
    expect(next.headers.get('x-hubspot-ratelimit-remaining')).toBe('3');
  });

  it('carries the rate-limit headers on an invalid query or path parameter, and is counted', async () => {
    const installed = await install(gateway, { limits: { tenSecondlyLimit: 5 } });

    const badQuery = await fetch(`${gateway.baseUrl}${companies}?limit=abc`, {
      headers: bearer(installed.accessToken),
    });
    await badQuery.arrayBuffer();
    const next = await fetch(`${gateway.baseUrl}${companies}?limit=1`, { headers: bearer(installed.accessToken) });
    await next.arrayBuffer();

    expect(badQuery.status).toBe(400);
    expect(badQuery.headers.get('x-hubspot-ratelimit-remaining')).toBe('4');
    expect(next.headers.get('x-hubspot-ratelimit-remaining')).toBe('3');
  });
});
