import {
  install,
  signTestAccessToken,
  useTestGateway,
  unique,
  type ErrorJson,
  type InstalledTokens,
} from '../../support/harness';
import { putCompanyRecordFixture } from '../../support/company-record-fixture';
import { callTimeline } from '../../support/timeline-client';

const gateway = useTestGateway();
let installed: InstalledTokens;
let contactTypeId: number;
let companyTypeId: number;

const appPath = () => `/integrations/v1/${installed.appId}/timeline`;
const call = <T = Record<string, unknown>>(
  method: string,
  path: string,
  body?: unknown,
  token = installed.accessToken,
) => callTimeline<T>(gateway.baseUrl, token, method, path, body);

/** Event types are set up with the app's developer API key; events are recorded with access tokens. */
async function createType(body: Record<string, unknown>, properties: Record<string, unknown>[]): Promise<number> {
  const key = { hapikey: installed.developerApiKey };
  const type = await callTimeline<{ id: number }>(gateway.baseUrl, key, 'POST', `${appPath()}/event-types`, body);
  for (const property of properties) {
    const response = await callTimeline(
      gateway.baseUrl,
      key,
      'POST',
      `${appPath()}/event-types/${type.body.id}/properties`,
      property,
    );
    if (response.status !== 200) throw new Error(`property create failed: ${response.text}`);
  }
  return type.body.id;
}

beforeAll(async () => {
  installed = await install(gateway);
  contactTypeId = await createType({ name: 'Webinar attended', headerTemplate: 'Attended {{webinarName}}' }, [
    { name: 'webinarName', label: 'Webinar', propertyType: 'String' },
    { name: 'attendeeCount', label: 'Attendees', propertyType: 'Numeric' },
    { name: 'joinedAt', label: 'Joined', propertyType: 'Date' },
    {
      name: 'tier',
      label: 'Tier',
      propertyType: 'Enumeration',
      options: [
        { value: 'gold', label: 'Gold' },
        { value: 'silver', label: 'Silver' },
      ],
    },
  ]);
  companyTypeId = await createType({ name: 'Contract signed', objectType: 'COMPANY' }, [
    { name: 'contractName', label: 'Contract', propertyType: 'String' },
  ]);
});

let companySequence = 0;
/** Shaped like the companies API's ids: "1", 12 digits of ms since 2024, 3 of sequence (16 digits, a safe integer). */
function newRecordId(): string {
  companySequence += 1;
  return `1${String(Date.now() - Date.UTC(2024, 0, 1)).padStart(12, '0')}${String(companySequence % 1000).padStart(3, '0')}`;
}

const eventPath = (eventTypeId: number, eventId: string) =>
  `${appPath()}/event/${eventTypeId}/${encodeURIComponent(eventId)}`;

function contactEvent(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: unique('event'),
    eventTypeId: String(contactTypeId),
    objectId: 901,
    timestamp: '1714658591512',
    ...overrides,
  };
}

describe('POST /integrations/v1/{appId}/timeline/event', () => {
  it('answers 204 and the event reads back with every field', async () => {
    const event = contactEvent({
      webinarName: 'Q2 roadmap',
      attendeeCount: '42',
      joinedAt: '1714658000000',
      tier: 'gold',
      extraData: { questions: [{ q: 'Pricing?', a: 'Later' }], deep: { a: { b: null } } },
      timelineIFrame: {
        linkLabel: 'Open recording',
        iframeLabel: 'Recording',
        iframeUri: 'https://example.com/r/1',
        width: 800,
        height: 300,
      },
    });

    const response = await call('POST', `${appPath()}/event`, event);
    const read = await call('GET', eventPath(contactTypeId, String(event.id)));

    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expect(read.status).toBe(200);
    expect(read.body).toEqual({
      id: event.id,
      applicationId: installed.appId,
      portalId: installed.hubId,
      eventTypeId: contactTypeId,
      objectType: 'CONTACT',
      objectId: 901,
      timestamp: 1714658591512,
      extraData: { questions: [{ q: 'Pricing?', a: 'Later' }], deep: { a: { b: null } } },
      webinarName: 'Q2 roadmap',
      attendeeCount: '42',
      joinedAt: '1714658000000',
      tier: 'gold',
      timelineIFrame: {
        linkLabel: 'Open recording',
        iframeLabel: 'Recording',
        iframeUri: 'https://example.com/r/1',
        width: 800,
        height: 300,
      },
    });
  });

  it('reads extraData as null and leaves timelineIFrame out when they were not sent', async () => {
    const event = contactEvent({ webinarName: 'Plain' });
    await call('POST', `${appPath()}/event`, event);

    const read = await call('GET', eventPath(contactTypeId, String(event.id)));

    expect(read.body).toEqual({
      id: event.id,
      applicationId: installed.appId,
      portalId: installed.hubId,
      eventTypeId: contactTypeId,
      objectType: 'CONTACT',
      objectId: 901,
      timestamp: 1714658591512,
      extraData: null,
      webinarName: 'Plain',
    });
  });

  it('accepts numeric eventTypeId, objectId and timestamp as JSON numbers', async () => {
    const event = contactEvent({ eventTypeId: contactTypeId, objectId: '77', timestamp: 1700000000000 });

    const response = await call('POST', `${appPath()}/event`, event);
    const read = await call('GET', eventPath(contactTypeId, String(event.id)));

    expect(response.status).toBe(204);
    expect(read.body).toMatchObject({ objectId: 77, timestamp: 1700000000000, eventTypeId: contactTypeId });
  });

  it('gives exactly one 204 for 10 parallel creates of one id', async () => {
    const event = contactEvent();

    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        call('POST', `${appPath()}/event`, { ...event, attendeeCount: String(index) }),
      ),
    );
    const read = await call('GET', eventPath(contactTypeId, String(event.id)));

    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 204)).toHaveLength(1);
    expect(statuses.filter((status) => status === 400)).toHaveLength(9);
    expect(read.body.attendeeCount).toBe(String(statuses.indexOf(204)));
  });

  it('stores the same id in two accounts independently: ids are unique per event type and account', async () => {
    // Ids unique across accounts would tell one account that another had used an id, and let it
    // squat ids another account would need.
    const event = contactEvent({ webinarName: 'First account' });
    const otherHubToken = signTestAccessToken({
      appId: installed.appId,
      hubId: installed.hubId + 1,
      scopes: ['timeline'],
    });

    const first = await call('POST', `${appPath()}/event`, event);
    const second = await call('POST', `${appPath()}/event`, { ...event, webinarName: 'Second account' }, otherHubToken);
    const batchInSecond = await call(
      'POST',
      `${appPath()}/event/batch`,
      { eventWrappers: [{ ...event, id: `${String(event.id)}-b` }] },
      otherHubToken,
    );
    const batchInFirst = await call('POST', `${appPath()}/event/batch`, {
      eventWrappers: [{ ...event, id: `${String(event.id)}-b` }],
    });
    const readFirst = await call('GET', eventPath(contactTypeId, String(event.id)));
    const readSecond = await call('GET', eventPath(contactTypeId, String(event.id)), undefined, otherHubToken);
    const duplicateInSecond = await call<ErrorJson>('POST', `${appPath()}/event`, event, otherHubToken);

    expect([first.status, second.status, batchInSecond.status, batchInFirst.status]).toEqual([204, 204, 204, 204]);
    expect(readFirst.body).toMatchObject({ id: event.id, portalId: installed.hubId, webinarName: 'First account' });
    expect(readSecond.body).toMatchObject({
      id: event.id,
      portalId: installed.hubId + 1,
      webinarName: 'Second account',
    });
    expect(duplicateInSecond.status).toBe(400);
    expect(duplicateInSecond.body.errors?.[0]?.code).toBe('DUPLICATE_EVENT_ID');
  });

  it('also creates through the legacy PUT', async () => {
    const event = contactEvent({ webinarName: 'Via PUT' });

    const response = await call('PUT', `${appPath()}/event`, event);
    const read = await call('GET', eventPath(contactTypeId, String(event.id)));

    expect(response.status).toBe(204);
    expect(read.body).toMatchObject({ id: event.id, webinarName: 'Via PUT' });
  });

  it('rejects a second create with the same id with 400 and keeps the first version', async () => {
    const event = contactEvent({ webinarName: 'First' });
    await call('POST', `${appPath()}/event`, event);

    const response = await call<ErrorJson>('POST', `${appPath()}/event`, { ...event, webinarName: 'Second' });
    const read = await call('GET', eventPath(contactTypeId, String(event.id)));

    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      status: 'error',
      category: 'VALIDATION_ERROR',
      context: { field: ['id'], id: [event.id] },
    });
    expect(read.body).toMatchObject({ webinarName: 'First' });
  });

  it('rejects a re-used id through the legacy PUT too', async () => {
    const event = contactEvent({ webinarName: 'First' });
    await call('POST', `${appPath()}/event`, event);

    const response = await call<ErrorJson>('PUT', `${appPath()}/event`, { ...event, webinarName: 'Second' });
    const read = await call('GET', eventPath(contactTypeId, String(event.id)));

    expect(response.status).toBe(400);
    expect(read.body).toMatchObject({ webinarName: 'First' });
  });

  it.each([
    ['attendeeCount', 'forty-two', 'INVALID_NUMBER'],
    ['joinedAt', '2024-05-02', 'INVALID_DATE'],
    ['tier', 'bronze', 'INVALID_OPTION'],
  ])('rejects %s=%s with 400 %s naming the field', async (name, value, code) => {
    const event = contactEvent({ [name]: value });

    const response = await call<ErrorJson>('POST', `${appPath()}/event`, event);
    const read = await call('GET', eventPath(contactTypeId, String(event.id)));

    expect(response.status).toBe(400);
    expect(response.body.context).toEqual({ field: [name] });
    expect(response.body.errors).toEqual([expect.objectContaining({ code, in: name })]);
    expect(read.status).toBe(404);
  });

  it('accepts a Numeric value with a sign and decimals', async () => {
    const response = await call('POST', `${appPath()}/event`, contactEvent({ attendeeCount: '-12.5' }));

    expect(response.status).toBe(204);
  });

  it('rejects a field the event type does not define', async () => {
    const response = await call<ErrorJson>('POST', `${appPath()}/event`, contactEvent({ color: 'red' }));

    expect(response.status).toBe(400);
    expect(response.body.context).toEqual({ field: ['color'] });
    expect(response.body.errors?.[0]?.code).toBe('PROPERTY_DOESNT_EXIST');
  });

  it('rejects a reserved name sent as a field', async () => {
    const response = await call<ErrorJson>('POST', `${appPath()}/event`, contactEvent({ portalId: 1 }));

    expect(response.status).toBe(400);
    expect(response.body.errors?.[0]).toMatchObject({ code: 'RESERVED_NAME', in: 'portalId' });
  });

  it('rejects a non-string custom value', async () => {
    const response = await call<ErrorJson>(
      'POST',
      `${appPath()}/event`,
      contactEvent({ webinarName: { nested: true } }),
    );

    expect(response.status).toBe(400);
    expect(response.body.context).toEqual({ field: ['webinarName'] });
  });

  it('rejects extraData that is not an object', async () => {
    const response = await call<ErrorJson>('POST', `${appPath()}/event`, contactEvent({ extraData: '{"a":1}' }));

    expect(response.status).toBe(400);
    expect(response.body.context).toEqual({ field: ['extraData'] });
  });

  it('rejects a timelineIFrame without its sizes', async () => {
    const response = await call<ErrorJson>(
      'POST',
      `${appPath()}/event`,
      contactEvent({
        timelineIFrame: { linkLabel: 'a', iframeLabel: 'b', iframeUri: 'https://example.com' },
      }),
    );

    expect(response.status).toBe(400);
    expect(response.body.context).toEqual({ field: ['timelineIFrame.width', 'timelineIFrame.height'] });
  });

  it('names every bad field at once', async () => {
    const response = await call<ErrorJson>('POST', `${appPath()}/event`, {
      eventTypeId: contactTypeId,
      attendeeCount: 'x',
    });

    expect(response.status).toBe(400);
    expect(response.body.context?.field).toEqual(['id', 'objectId', 'attendeeCount']);
  });

  it('answers 404 for an unknown event type', async () => {
    const response = await call<ErrorJson>('POST', `${appPath()}/event`, contactEvent({ eventTypeId: 999999996 }));

    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ category: 'OBJECT_NOT_FOUND', context: { eventTypeId: ['999999996'] } });
  });

  it('answers 404 for an event type of another app', async () => {
    const other = await install(gateway);
    const foreignType = await callTimeline<{ id: number }>(
      gateway.baseUrl,
      { hapikey: other.developerApiKey },
      'POST',
      `/integrations/v1/${other.appId}/timeline/event-types`,
      { name: 'Foreign' },
    );

    const response = await call<ErrorJson>(
      'POST',
      `${appPath()}/event`,
      contactEvent({ eventTypeId: foreignType.body.id }),
    );

    expect(response.status).toBe(404);
  });

  it('answers 403 to a token of another app', async () => {
    const token = signTestAccessToken({ appId: installed.appId + 1000, hubId: installed.hubId, scopes: ['timeline'] });

    const response = await call<ErrorJson>('POST', `${appPath()}/event`, contactEvent(), token);

    expect(response.status).toBe(403);
    expect(response.body.category).toBe('FORBIDDEN');
  });

  it('rejects an id that is not valid Unicode, which storage would silently alter', async () => {
    const response = await call<ErrorJson>(
      'POST',
      `${appPath()}/event`,
      contactEvent({ id: `${unique('lone')}\ud800` }),
    );

    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ context: { field: ['id'] }, errors: [{ code: 'INVALID_TEXT' }] });
  });

  it('rejects extraData nested deeper than 64 levels with 400, not a crash', async () => {
    const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    const body = `{"id":"${unique('deep')}","eventTypeId":${contactTypeId},"objectId":1,"extraData":{"a":${deep}}}`;

    const response = await call<ErrorJson>('POST', `${appPath()}/event`, body);

    expect(response.status).toBe(400);
    expect(response.body.errors?.[0]?.code).toBe('TOO_DEEP');
  });

  it('keeps extraData text exactly, including characters outside the BMP', async () => {
    const event = contactEvent({ extraData: { note: 'emoji 😀, accents é, nul \u0000, quotes "x"' } });
    await call('POST', `${appPath()}/event`, event);

    const read = await call('GET', eventPath(contactTypeId, String(event.id)));

    expect(read.body.extraData).toEqual({ note: 'emoji 😀, accents é, nul \u0000, quotes "x"' });
  });

  it('answers 400 for a body that is not JSON', async () => {
    const response = await call<ErrorJson>('POST', `${appPath()}/event`, '{"id":');

    expect(response.status).toBe(400);
    expect(response.body.correlationId).toEqual(expect.any(String));
  });
});

describe('COMPANY events', () => {
  it('records an event on an existing company of the hub', async () => {
    const companyId = newRecordId();
    await putCompanyRecordFixture(installed.hubId, companyId);
    const event = {
      id: unique('company-event'),
      eventTypeId: companyTypeId,
      objectId: Number(companyId),
      contractName: 'MSA',
      timestamp: 1714658591512,
    };

    const response = await call('POST', `${appPath()}/event`, event);
    const read = await call('GET', eventPath(companyTypeId, event.id));

    expect(response.status).toBe(204);
    expect(read.body).toEqual({
      id: event.id,
      applicationId: installed.appId,
      portalId: installed.hubId,
      eventTypeId: companyTypeId,
      objectType: 'COMPANY',
      objectId: Number(companyId),
      timestamp: 1714658591512,
      extraData: null,
      contractName: 'MSA',
    });
  });

  it('accepts a 16-digit company id sent as a string', async () => {
    const companyId = newRecordId();
    await putCompanyRecordFixture(installed.hubId, companyId);
    const event = { id: unique('company-event'), eventTypeId: companyTypeId, objectId: companyId };

    const response = await call('POST', `${appPath()}/event`, event);
    const read = await call('GET', eventPath(companyTypeId, event.id));

    expect(response.status).toBe(204);
    expect(read.body.objectId).toBe(Number(companyId));
  });

  it('rejects a company that does not exist with 400 naming objectId', async () => {
    const event = { id: unique('company-event'), eventTypeId: companyTypeId, objectId: 424242424242 };

    const response = await call<ErrorJson>('POST', `${appPath()}/event`, event);
    const read = await call('GET', eventPath(companyTypeId, event.id));

    expect(response.status).toBe(400);
    expect(response.body.context).toEqual({ field: ['objectId'], objectId: ['424242424242'] });
    expect(read.status).toBe(404);
  });

  it('rejects an archived company', async () => {
    const companyId = newRecordId();
    await putCompanyRecordFixture(installed.hubId, companyId, { archived: true });

    const response = await call<ErrorJson>('POST', `${appPath()}/event`, {
      id: unique('e'),
      eventTypeId: companyTypeId,
      objectId: Number(companyId),
    });

    expect(response.status).toBe(400);
    expect(response.body.context?.field).toEqual(['objectId']);
  });

  it('rejects a company of another hub', async () => {
    const companyId = newRecordId();
    await putCompanyRecordFixture(installed.hubId + 1, companyId);

    const response = await call<ErrorJson>('POST', `${appPath()}/event`, {
      id: unique('e'),
      eventTypeId: companyTypeId,
      objectId: Number(companyId),
    });

    expect(response.status).toBe(400);
  });
});

describe('GET /integrations/v1/{appId}/timeline/event/{eventTypeId}/{eventId}', () => {
  it('answers 404 to another hub exactly as for a missing event', async () => {
    const event = contactEvent();
    await call('POST', `${appPath()}/event`, event);
    const otherHubToken = signTestAccessToken({
      appId: installed.appId,
      hubId: installed.hubId + 1,
      scopes: ['timeline'],
    });

    const foreign = await call<ErrorJson>('GET', eventPath(contactTypeId, String(event.id)), undefined, otherHubToken);
    const missing = await call<ErrorJson>('GET', eventPath(contactTypeId, 'no-such-event'), undefined, otherHubToken);

    expect(foreign.status).toBe(404);
    expect(missing.status).toBe(404);
    expect({ ...foreign.body, correlationId: '', message: '', context: {} }).toEqual({
      ...missing.body,
      correlationId: '',
      message: '',
      context: {},
    });
  });

  it('answers 404 for an unknown event', async () => {
    const response = await call<ErrorJson>('GET', eventPath(contactTypeId, 'never-written'));

    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({
      status: 'error',
      category: 'OBJECT_NOT_FOUND',
      context: { eventId: ['never-written'] },
    });
  });

  it('answers 404 for a non-numeric event type id', async () => {
    const response = await call<ErrorJson>('GET', `${appPath()}/event/abc/1`);

    expect(response.status).toBe(404);
  });

  it('answers 403 to a token of another app', async () => {
    const event = contactEvent();
    await call('POST', `${appPath()}/event`, event);
    const token = signTestAccessToken({ appId: installed.appId + 1000, hubId: installed.hubId, scopes: ['timeline'] });

    const response = await call<ErrorJson>('GET', eventPath(contactTypeId, String(event.id)), undefined, token);

    expect(response.status).toBe(403);
  });

  it('answers 404 once the event type is deleted', async () => {
    const typeId = await createType({ name: 'Short-lived' }, []);
    const event = { id: unique('e'), eventTypeId: typeId, objectId: 5 };
    await call('POST', `${appPath()}/event`, event);

    await callTimeline(
      gateway.baseUrl,
      { hapikey: installed.developerApiKey },
      'DELETE',
      `${appPath()}/event-types/${typeId}`,
    );
    const read = await call('GET', eventPath(typeId, event.id));

    expect(read.status).toBe(404);
  });

  it('reads an event id with characters that need encoding in the path', async () => {
    const event = contactEvent({ id: unique('a/b c?#') });
    await call('POST', `${appPath()}/event`, event);

    const read = await call('GET', eventPath(contactTypeId, String(event.id)));

    expect(read.status).toBe(200);
    expect(read.body.id).toBe(event.id);
  });
});

describe('POST /integrations/v1/{appId}/timeline/event/batch', () => {
  async function readAll(ids: string[], eventTypeId = contactTypeId) {
    return Promise.all(ids.map(async (id) => (await call('GET', eventPath(eventTypeId, id))).status));
  }

  it('records every event of the batch and answers 204', async () => {
    const events = [contactEvent({ webinarName: 'one' }), contactEvent({ webinarName: 'two', tier: 'silver' })];

    const response = await call('POST', `${appPath()}/event/batch`, { eventWrappers: events });
    const first = await call('GET', eventPath(contactTypeId, String(events[0]?.id)));
    const second = await call('GET', eventPath(contactTypeId, String(events[1]?.id)));

    expect(response.status).toBe(204);
    expect(first.body).toMatchObject({ id: events[0]?.id, webinarName: 'one' });
    expect(second.body).toMatchObject({ id: events[1]?.id, webinarName: 'two', tier: 'silver' });
  });

  it('records a batch of 100 events in one go', async () => {
    const events = Array.from({ length: 100 }, (_, index) => contactEvent({ attendeeCount: String(index) }));

    const response = await call('POST', `${appPath()}/event/batch`, { eventWrappers: events });
    const statuses = await readAll(events.map((event) => String(event.id)));

    expect(response.status).toBe(204);
    expect(statuses.every((status) => status === 200)).toBe(true);
  });

  it('rejects 101 events with 400 and stores none', async () => {
    const events = Array.from({ length: 101 }, () => contactEvent());

    const response = await call<ErrorJson>('POST', `${appPath()}/event/batch`, { eventWrappers: events });
    const statuses = await readAll(events.slice(0, 3).map((event) => String(event.id)));

    expect(response.status).toBe(400);
    expect(response.body.context?.field).toEqual(['body.eventWrappers']);
    expect(statuses).toEqual([404, 404, 404]);
  });

  it('rejects the whole batch when one event is invalid, naming it, and stores none of it', async () => {
    const events = [contactEvent(), contactEvent({ attendeeCount: 'many' }), contactEvent()];

    const response = await call<ErrorJson>('POST', `${appPath()}/event/batch`, { eventWrappers: events });
    const statuses = await readAll(events.map((event) => String(event.id)));

    expect(response.status).toBe(400);
    expect(response.body.context).toEqual({ field: ['eventWrappers[1].attendeeCount'] });
    expect(statuses).toEqual([404, 404, 404]);
  });

  it('rejects the whole batch when one id already exists, keeps that first version and stores nothing new', async () => {
    const existing = contactEvent({ webinarName: 'original' });
    await call('POST', `${appPath()}/event`, existing);
    const fresh = [contactEvent(), contactEvent()];

    const response = await call<ErrorJson>('POST', `${appPath()}/event/batch`, {
      eventWrappers: [fresh[0], { ...existing, webinarName: 'changed' }, fresh[1]],
    });
    const statuses = await readAll(fresh.map((event) => String(event.id)));
    const original = await call('GET', eventPath(contactTypeId, String(existing.id)));

    expect(response.status).toBe(400);
    expect(response.body.context).toEqual({ field: ['eventWrappers[1].id'], id: [existing.id] });
    expect(statuses).toEqual([404, 404]);
    expect(original.body).toMatchObject({ webinarName: 'original' });
  });

  it('keeps the stored state equal to the answers when two batches race for one id', async () => {
    for (let round = 0; round < 5; round += 1) {
      const shared = contactEvent();
      const batches = [
        [contactEvent(), { ...shared, webinarName: 'A' }],
        [contactEvent(), { ...shared, webinarName: 'B' }],
      ];

      const responses = await Promise.all(
        batches.map((eventWrappers) => call('POST', `${appPath()}/event/batch`, { eventWrappers })),
      );
      const own = await Promise.all(
        batches.map(async (events) => (await call('GET', eventPath(contactTypeId, String(events[0]?.id)))).status),
      );
      const sharedRead = await call('GET', eventPath(contactTypeId, String(shared.id)));

      const statuses = responses.map((response) => response.status);
      expect(statuses.filter((status) => status === 204).length).toBeLessThanOrEqual(1);
      expect(statuses.every((status) => [204, 400, 409].includes(status))).toBe(true);
      expect(own).toEqual(statuses.map((status) => (status === 204 ? 200 : 404)));
      const winner = statuses.indexOf(204);
      expect(sharedRead.status).toBe(winner < 0 ? 404 : 200);
      if (winner >= 0) expect(sharedRead.body.webinarName).toBe(winner === 0 ? 'A' : 'B');
    }
  });

  it('rejects a batch that repeats an id', async () => {
    const event = contactEvent();

    const response = await call<ErrorJson>('POST', `${appPath()}/event/batch`, {
      eventWrappers: [event, { ...event }],
    });
    const read = await call('GET', eventPath(contactTypeId, String(event.id)));

    expect(response.status).toBe(400);
    expect(response.body.context).toEqual({ field: ['eventWrappers[1].id'] });
    expect(read.status).toBe(404);
  });

  it('rejects the whole batch when one event names an unknown type', async () => {
    const good = contactEvent();

    const response = await call<ErrorJson>('POST', `${appPath()}/event/batch`, {
      eventWrappers: [good, contactEvent({ eventTypeId: 999999995 })],
    });
    const read = await call('GET', eventPath(contactTypeId, String(good.id)));

    expect(response.status).toBe(400);
    expect(response.body.errors?.[0]).toMatchObject({ code: 'OBJECT_NOT_FOUND', in: 'eventWrappers[1].eventTypeId' });
    expect(read.status).toBe(404);
  });

  it('rejects the whole batch when one COMPANY event names a missing company', async () => {
    const companyId = newRecordId();
    await putCompanyRecordFixture(installed.hubId, companyId);
    const good = { id: unique('e'), eventTypeId: companyTypeId, objectId: Number(companyId) };
    const bad = { id: unique('e'), eventTypeId: companyTypeId, objectId: 5151515151 };

    const response = await call<ErrorJson>('POST', `${appPath()}/event/batch`, { eventWrappers: [good, bad] });
    const statuses = await readAll([good.id, bad.id], companyTypeId);

    expect(response.status).toBe(400);
    expect(response.body.context).toEqual({ field: ['eventWrappers[1].objectId'] });
    expect(statuses).toEqual([404, 404]);
  });

  it('mixes event types in one batch', async () => {
    const companyId = newRecordId();
    await putCompanyRecordFixture(installed.hubId, companyId);
    const contact = contactEvent();
    const company = { id: unique('e'), eventTypeId: companyTypeId, objectId: Number(companyId) };

    const response = await call('POST', `${appPath()}/event/batch`, { eventWrappers: [contact, company] });
    const statuses = [...(await readAll([String(contact.id)])), ...(await readAll([company.id], companyTypeId))];

    expect(response.status).toBe(204);
    expect(statuses).toEqual([200, 200]);
  });

  it('also records through the legacy PUT', async () => {
    const event = contactEvent();

    const response = await call('PUT', `${appPath()}/event/batch`, { eventWrappers: [event] });
    const read = await call('GET', eventPath(contactTypeId, String(event.id)));

    expect(response.status).toBe(204);
    expect(read.status).toBe(200);
  });

  it('answers 403 to a token of another app and stores nothing', async () => {
    const event = contactEvent();
    const token = signTestAccessToken({ appId: installed.appId + 1000, hubId: installed.hubId, scopes: ['timeline'] });

    const response = await call('POST', `${appPath()}/event/batch`, { eventWrappers: [event] }, token);
    const read = await call('GET', eventPath(contactTypeId, String(event.id)));

    expect(response.status).toBe(403);
    expect(read.status).toBe(404);
  });

  it('rejects a batch whose events are too large together with 413', async () => {
    const big = 'x'.repeat(300_000);
    const events = Array.from({ length: 12 }, () => contactEvent({ webinarName: big }));

    const response = await call<ErrorJson>('POST', `${appPath()}/event/batch`, { eventWrappers: events });
    const read = await call('GET', eventPath(contactTypeId, String(events[0]?.id)));

    expect(response.status).toBe(413);
    expect(read.status).toBe(404);
  });

  it('rejects one event larger than an item can hold with 400', async () => {
    const response = await call<ErrorJson>(
      'POST',
      `${appPath()}/event`,
      contactEvent({ extraData: { blob: 'y'.repeat(400_000) } }),
    );

    expect(response.status).toBe(400);
    expect(response.body.errors?.[0]?.code).toBe('TOO_LARGE');
  });
});

describe('error answers stay small', () => {
  it('lists at most 50 problems and cuts long unknown field names short', async () => {
    const event = contactEvent();
    for (let index = 0; index < 500; index += 1) event[`${'k'.repeat(5000)}${index}`] = 'x';

    const response = await call<ErrorJson>('POST', `${appPath()}/event`, event);

    expect(response.status).toBe(400);
    expect(response.body.errors).toHaveLength(50);
    expect(response.body.message).toContain('and 450 more problems');
    expect(response.text.length).toBeLessThan(60_000);
  });
});
