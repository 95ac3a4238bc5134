import fc from 'fast-check';
import type { Route } from '../../../shared/route-types';
import { routes } from '../../../shared/routes';
import { install, signTestAccessToken, useTestGateway, type InstalledTokens } from '../../support/harness';
import { callTimeline, type TimelineCredential } from '../../support/timeline-client';

const gateway = useTestGateway();
let installed: InstalledTokens;
let stranger: InstalledTokens;
let eventTypeId: number;
let propertyId: number;

const timelineRoutes = routes.filter((route) => route.path.startsWith('/integrations/v1/'));

beforeAll(async () => {
  installed = await install(gateway);
  stranger = await install(gateway);
});

/**
 * The credentials a route's row accepts (see RouteAuth), of this app or of another: developer-key routes get
 * the app's developer API key or another developer's; token routes the app's token or another app's; routes
 * that take either get both kinds.
 */
function credentialFor(route: Route, ownApp: boolean, useKey: boolean): TimelineCredential {
  const mode = route.auth ?? 'token';
  if (mode === 'developerKey' || (mode === 'developerKeyOrToken' && useKey)) return { hapikey: (ownApp ? installed : stranger).developerApiKey };
  return ownApp ? installed.accessToken : signTestAccessToken({ appId: installed.appId + 1, hubId: installed.hubId, scopes: ['timeline'] });
}

// A fresh type per route, so the delete routes cannot take the fixtures away from the routes after them.
beforeEach(async () => {
  const base = `/integrations/v1/${installed.appId}/timeline/event-types`;
  const key = { hapikey: installed.developerApiKey };
  const type = await callTimeline<{ id: number }>(gateway.baseUrl, key, 'POST', base, { name: 'Fuzzed' });
  eventTypeId = type.body.id;
  const property = await callTimeline<{ id: number }>(gateway.baseUrl, key, 'POST', `${base}/${eventTypeId}/properties`,
    { name: 'level', label: 'Level', propertyType: 'Enumeration', options: [{ value: 'a', label: 'A' }] });
  propertyId = property.body.id;
  await callTimeline(gateway.baseUrl, installed.accessToken, 'POST', `/integrations/v1/${installed.appId}/timeline/event`,
    { id: 'some-event', eventTypeId, objectId: 1, level: 'a' });
});

// Path segments: real ids, numbers near the edges, and arbitrary text (never a lone surrogate,
// which no client can put in a URL).
const segment = (real: () => string) => fc.oneof(
  { arbitrary: fc.constant(null).map(() => real()), weight: 12 },
  fc.integer().map(String),
  fc.constantFrom('0', '-1', '1e3', '99999999999999999999', '00001', ' ', '%', '..'),
  fc.string({ unit: 'grapheme', maxLength: 40 }).filter((text) => text.length > 0),
  fc.string({ minLength: 300, maxLength: 1100 }),
);

const anyValue = fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.string({ unit: 'binary', maxLength: 30 }), fc.constant(null));
/** Mostly a valid value, sometimes anything: random bodies must also get past validation to test the writes. */
const mostly = <T>(valid: fc.Arbitrary<T>) => fc.oneof({ arbitrary: valid, weight: 4 }, { arbitrary: anyValue, weight: 1 });
const optional = { requiredKeys: [] as [] };

const validIFrame = fc.record({
  linkLabel: fc.string({ unit: 'binary', minLength: 1 }), iframeLabel: fc.string({ unit: 'binary', minLength: 1 }), iframeUri: fc.webUrl(),
  width: fc.integer({ min: 1 }), height: fc.integer({ min: 1 }),
});
// Valid events with arbitrary text everywhere text may go (any code point, deep extraData), to test what gets stored.
const validEvent = fc.record({
  id: fc.string({ unit: 'binary', minLength: 1, maxLength: 256 }),
  eventTypeId: fc.constant(null).map(() => eventTypeId),
  objectId: fc.integer({ min: 1 }),
  timestamp: fc.nat(),
  extraData: fc.dictionary(fc.string({ unit: 'binary', maxLength: 10 }), fc.jsonValue({ maxDepth: 40 }), { maxKeys: 4 }),
  timelineIFrame: validIFrame,
  level: fc.constant('a'),
}, { requiredKeys: ['id', 'eventTypeId', 'objectId'] });
const mutantEvent = fc.record({
  id: mostly(fc.string({ unit: 'binary', minLength: 1, maxLength: 300 })),
  eventTypeId: mostly(fc.constant(null).map(() => eventTypeId)),
  objectId: mostly(fc.oneof(fc.integer({ min: 1 }), fc.integer().map(String))),
  timestamp: mostly(fc.oneof(fc.integer({ min: 0 }), fc.double(), fc.nat().map(String))),
  extraData: mostly(fc.dictionary(fc.string({ unit: 'binary', maxLength: 10 }), fc.jsonValue({ maxDepth: 40 }), { maxKeys: 4 })),
  timelineIFrame: mostly(fc.record({ linkLabel: mostly(fc.string()), iframeLabel: mostly(fc.string()), iframeUri: mostly(fc.webUrl()), width: mostly(fc.integer()), height: mostly(fc.integer()) }, optional)),
  portalId: anyValue,
  level: mostly(fc.constantFrom('a', 'b', '')),
}, { requiredKeys: ['id', 'eventTypeId', 'objectId'] });
const eventLike = fc.oneof(validEvent, mutantEvent).chain((event) => fc.oneof(
  { arbitrary: fc.constant(event), weight: 4 },
  fc.dictionary(fc.string({ unit: 'binary', maxLength: 12 }), anyValue, { maxKeys: 3 }).map((extra) => ({ ...extra, ...event })),
));
const typeLike = fc.record({
  name: mostly(fc.string({ unit: 'binary', maxLength: 1100 })), headerTemplate: mostly(fc.string({ unit: 'binary' })), detailTemplate: anyValue,
  objectType: mostly(fc.constantFrom('CONTACT', 'COMPANY', 'DEAL')), applicationId: fc.oneof(fc.constant(null).map(() => installed.appId), anyValue), id: anyValue,
}, { requiredKeys: ['name'] });
const propertyLike = fc.record({
  id: mostly(fc.constant(null).map(() => propertyId)), name: mostly(fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,8}$/)), label: mostly(fc.string({ unit: 'binary', minLength: 1 })),
  propertyType: mostly(fc.constantFrom('String', 'Numeric', 'Date', 'Enumeration')),
  options: mostly(fc.array(fc.record({ value: mostly(fc.string({ unit: 'binary', minLength: 1 })), label: mostly(fc.string()) }, { requiredKeys: ['value', 'label'] }), { minLength: 1, maxLength: 4 })),
  objectProperty: mostly(fc.string()), eventTypeId: mostly(fc.constant(null).map(() => eventTypeId)),
}, { requiredKeys: ['id', 'name', 'label', 'propertyType'] });

/** The text sent: JSON of a near-miss body for this route, any JSON at all, or text that is not JSON. */
function bodyTextFor(routeName: string): fc.Arbitrary<string> {
  const fitting = routeName.includes('Batch')
    ? fc.record({ eventWrappers: mostly(fc.array(eventLike, { maxLength: 5 })) })
    : routeName.includes('Property') ? propertyLike : routeName.includes('EventType') ? typeLike : eventLike;
  return fc.oneof(
    { arbitrary: fitting.map((value) => JSON.stringify(value)), weight: 6 },
    { arbitrary: fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value) ?? 'null'), weight: 1 },
    { arbitrary: fc.string({ unit: 'binary', maxLength: 50 }), weight: 1 },
  );
}

describe('every timeline route under random ids and bodies', () => {
  it.each(timelineRoutes.map((route) => [route.name, route] as const))('%s never answers 5xx and always the error object', async (_name, route) => {
    const seen = new Map<number, number>();
    await fc.assert(fc.asyncProperty(
      segment(() => String(installed.appId)), segment(() => String(eventTypeId)), segment(() => String(propertyId)), segment(() => 'some-event'),
      bodyTextFor(route.name), fc.oneof({ arbitrary: fc.constant(true), weight: 4 }, fc.constant(false)), fc.boolean(),
      async (appId, typeId, propId, eventId, text, ownApp, useKey) => {
        const path = route.path
          .replace('{appId}', encodeURIComponent(appId)).replace('{eventTypeId}', encodeURIComponent(typeId))
          .replace('{propertyId}', encodeURIComponent(propId)).replace('{eventId}', encodeURIComponent(eventId));
        const credential = credentialFor(route, ownApp, useKey);
        const response = await callTimeline<Record<string, unknown>>(gateway.baseUrl, credential, route.method, path, route.body === 'none' ? undefined : text);

        seen.set(response.status, (seen.get(response.status) ?? 0) + 1);
        expect(response.status).toBeLessThan(500);
        if (response.status >= 400) {
          expect(response.body).toMatchObject({ status: 'error', message: expect.any(String), correlationId: expect.any(String), category: expect.any(String) });
        }
      },
    ), { numRuns: 60 });
    if (process.env.FUZZ_REPORT) console.log(route.name, JSON.stringify([...seen].sort()));
  });
});
