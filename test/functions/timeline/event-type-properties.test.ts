import { reservedTimelineNames } from '../../../shared/timeline/event-type-properties';
import {
  install,
  signTestAccessToken,
  useTestGateway,
  type ErrorJson,
  type InstalledTokens,
} from '../../support/harness';
import { callTimeline, type TimelineCredential } from '../../support/timeline-client';

interface PropertyJson {
  id: number;
  eventTypeId: number;
  name: string;
  label: string;
  propertyType: string;
  objectProperty?: string;
  options: { propertyId: number; label: string; value: string }[];
}

const gateway = useTestGateway();
let installed: InstalledTokens;

beforeAll(async () => {
  installed = await install(gateway);
});

/** Properties are managed with the app's developer API key; the list also takes the app's access tokens. */
const call = <T = PropertyJson>(
  method: string,
  path: string,
  body?: unknown,
  credential: TimelineCredential = { hapikey: installed.developerApiKey },
) => callTimeline<T>(gateway.baseUrl, credential, method, path, body);

async function newEventTypeId(): Promise<number> {
  const response = await call<{ id: number }>('POST', `/integrations/v1/${installed.appId}/timeline/event-types`, {
    name: 'Typed',
  });
  return response.body.id;
}

const propertiesPath = (eventTypeId: number | string) =>
  `/integrations/v1/${installed.appId}/timeline/event-types/${eventTypeId}/properties`;

describe('POST .../event-types/{eventTypeId}/properties', () => {
  it.each(['String', 'Numeric', 'Date'])(
    'creates a %s property and answers 200 with every field',
    async (propertyType) => {
      const eventTypeId = await newEventTypeId();

      const response = await call('POST', propertiesPath(eventTypeId), {
        name: 'field1',
        label: 'Field one',
        propertyType,
      });

      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        id: expect.any(Number),
        eventTypeId,
        name: 'field1',
        label: 'Field one',
        propertyType,
        options: [],
      });
    },
  );

  it('creates an Enumeration property whose options carry the property id', async () => {
    const eventTypeId = await newEventTypeId();

    const response = await call('POST', propertiesPath(eventTypeId), {
      name: 'tier',
      label: 'Tier',
      propertyType: 'Enumeration',
      objectProperty: 'tier_level',
      options: [
        { value: 'A', label: 'Option A' },
        { value: 'B', label: 'Option B' },
      ],
    });

    expect(response.status).toBe(200);
    const id = response.body.id;
    expect(response.body).toEqual({
      id,
      eventTypeId,
      name: 'tier',
      label: 'Tier',
      propertyType: 'Enumeration',
      objectProperty: 'tier_level',
      options: [
        { propertyId: id, label: 'Option A', value: 'A' },
        { propertyId: id, label: 'Option B', value: 'B' },
      ],
    });
  });

  it('rejects an Enumeration without options', async () => {
    const eventTypeId = await newEventTypeId();

    const response = await call<ErrorJson>('POST', propertiesPath(eventTypeId), {
      name: 'tier',
      label: 'Tier',
      propertyType: 'Enumeration',
    });

    expect(response.status).toBe(400);
    expect(response.body.context?.field).toEqual(['options']);
  });

  it('rejects options on a String property', async () => {
    const eventTypeId = await newEventTypeId();

    const response = await call<ErrorJson>('POST', propertiesPath(eventTypeId), {
      name: 'x',
      label: 'X',
      propertyType: 'String',
      options: [{ value: 'A', label: 'A' }],
    });

    expect(response.status).toBe(400);
    expect(response.body.context?.field).toEqual(['options']);
  });

  it('rejects an unknown propertyType', async () => {
    const eventTypeId = await newEventTypeId();

    const response = await call<ErrorJson>('POST', propertiesPath(eventTypeId), {
      name: 'x',
      label: 'X',
      propertyType: 'Boolean',
    });

    expect(response.status).toBe(400);
    expect(response.body.context?.field).toEqual(['body.propertyType']);
  });

  it.each(reservedTimelineNames)('rejects the reserved name %s', async (name) => {
    const eventTypeId = await newEventTypeId();

    const response = await call<ErrorJson>('POST', propertiesPath(eventTypeId), {
      name,
      label: 'Reserved',
      propertyType: 'String',
    });

    expect(response.status).toBe(400);
    expect(response.body.context).toEqual({ field: ['name'], name: [name] });
  });

  // Accepted, a property so named would make every event setting it answer 500.
  it.each([
    'constructor',
    'toString',
    'hasOwnProperty',
    'valueOf',
    'isPrototypeOf',
    'propertyIsEnumerable',
    'toLocaleString',
  ])('rejects %s, the name of an Object.prototype member, with 400 naming the field', async (name) => {
    const eventTypeId = await newEventTypeId();

    const response = await call<ErrorJson>('POST', propertiesPath(eventTypeId), {
      name,
      label: `Member ${name}`,
      propertyType: 'String',
    });

    expect(response.status).toBe(400);
    expect(response.body.context).toEqual({ field: ['name'], name: [name] });
  });

  it('rejects a name that could not be an event key', async () => {
    const eventTypeId = await newEventTypeId();

    const response = await call<ErrorJson>('POST', propertiesPath(eventTypeId), {
      name: 'has space',
      label: 'X',
      propertyType: 'String',
    });

    expect(response.status).toBe(400);
    expect(response.body.context?.field).toEqual(['name']);
  });

  it('answers 409 OBJECT_ALREADY_EXISTS for a second property of the same name', async () => {
    const eventTypeId = await newEventTypeId();
    await call('POST', propertiesPath(eventTypeId), { name: 'dup', label: 'Dup', propertyType: 'String' });

    const response = await call<ErrorJson>('POST', propertiesPath(eventTypeId), {
      name: 'dup',
      label: 'Dup 2',
      propertyType: 'Numeric',
    });

    expect(response.status).toBe(409);
    expect(response.body.category).toBe('OBJECT_ALREADY_EXISTS');
  });

  it('gives exactly one 200 for 5 parallel creates of one name', async () => {
    const eventTypeId = await newEventTypeId();

    const responses = await Promise.all(
      Array.from({ length: 5 }, () =>
        call('POST', propertiesPath(eventTypeId), { name: 'race', label: 'Race', propertyType: 'String' }),
      ),
    );
    const listed = await call<PropertyJson[]>('GET', propertiesPath(eventTypeId));

    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409]);
    expect(listed.body).toHaveLength(1);
  });

  it('answers 404 for an unknown event type', async () => {
    const response = await call<ErrorJson>('POST', propertiesPath(999999997), {
      name: 'x',
      label: 'X',
      propertyType: 'String',
    });

    expect(response.status).toBe(404);
    expect(response.body.category).toBe('OBJECT_NOT_FOUND');
  });

  it("answers 403 to another developer's key and 401 to access tokens, even the app's own", async () => {
    const eventTypeId = await newEventTypeId();
    const other = await install(gateway);
    const otherAppToken = signTestAccessToken({
      appId: installed.appId + 1000,
      hubId: installed.hubId,
      scopes: ['timeline'],
    });
    const body = { name: 'x', label: 'X', propertyType: 'String' };

    const byOtherKey = await call<ErrorJson>('POST', propertiesPath(eventTypeId), body, {
      hapikey: other.developerApiKey,
    });
    const byOwnToken = await call<ErrorJson>('POST', propertiesPath(eventTypeId), body, installed.accessToken);
    const byOtherToken = await call<ErrorJson>('POST', propertiesPath(eventTypeId), body, otherAppToken);
    const list = await call<PropertyJson[]>('GET', propertiesPath(eventTypeId), undefined, installed.accessToken);

    expect(byOtherKey.status).toBe(403);
    expect(byOtherKey.body.category).toBe('FORBIDDEN');
    expect([byOwnToken.status, byOtherToken.status]).toEqual([401, 401]);
    expect(byOwnToken.body.category).toBe('INVALID_AUTHENTICATION');
    expect(list.body).toEqual([]);
  });
});

describe('GET .../event-types/{eventTypeId}/properties', () => {
  it('lists the properties as a bare array in creation order', async () => {
    const eventTypeId = await newEventTypeId();
    const first = await call('POST', propertiesPath(eventTypeId), { name: 'a', label: 'A', propertyType: 'String' });
    const second = await call('POST', propertiesPath(eventTypeId), {
      name: 'b',
      label: 'B',
      propertyType: 'Enumeration',
      options: [{ value: 'x', label: 'X' }],
    });

    const response = await call<PropertyJson[]>('GET', propertiesPath(eventTypeId));

    expect(response.status).toBe(200);
    expect(response.body).toEqual([first.body, second.body]);
  });

  it('answers 404 for a non-numeric event type id', async () => {
    const response = await call<ErrorJson>('GET', propertiesPath('x1'));

    expect(response.status).toBe(404);
  });
});

describe('PUT .../event-types/{eventTypeId}/properties', () => {
  it('updates label, type and options by id, answers 200, and the change reads back', async () => {
    const eventTypeId = await newEventTypeId();
    const created = await call('POST', propertiesPath(eventTypeId), {
      name: 'level',
      label: 'Level',
      propertyType: 'String',
    });

    const response = await call('PUT', propertiesPath(eventTypeId), {
      id: created.body.id,
      name: 'level',
      label: 'Level (new)',
      propertyType: 'Enumeration',
      options: [{ value: 'hi', label: 'High' }],
    });
    const listed = await call<PropertyJson[]>('GET', propertiesPath(eventTypeId));

    const expected = {
      id: created.body.id,
      eventTypeId,
      name: 'level',
      label: 'Level (new)',
      propertyType: 'Enumeration',
      options: [{ propertyId: created.body.id, label: 'High', value: 'hi' }],
    };
    expect(response.status).toBe(200);
    expect(response.body).toEqual(expected);
    expect(listed.body).toEqual([expected]);
  });

  it('answers 404 for an id that does not exist', async () => {
    const eventTypeId = await newEventTypeId();

    const response = await call<ErrorJson>('PUT', propertiesPath(eventTypeId), {
      id: 987654321,
      label: 'X',
      propertyType: 'String',
    });

    expect(response.status).toBe(404);
    expect(response.body.category).toBe('OBJECT_NOT_FOUND');
  });

  it('rejects a changed name with 400 and keeps the property', async () => {
    const eventTypeId = await newEventTypeId();
    const created = await call('POST', propertiesPath(eventTypeId), {
      name: 'keep',
      label: 'Keep',
      propertyType: 'String',
    });

    const response = await call<ErrorJson>('PUT', propertiesPath(eventTypeId), {
      id: created.body.id,
      name: 'renamed',
      label: 'X',
      propertyType: 'String',
    });
    const listed = await call<PropertyJson[]>('GET', propertiesPath(eventTypeId));

    expect(response.status).toBe(400);
    expect(response.body.context).toMatchObject({ field: ['name'] });
    expect(listed.body).toEqual([created.body]);
  });

  it('answers 404 for a property of another event type', async () => {
    const owner = await newEventTypeId();
    const other = await newEventTypeId();
    const created = await call('POST', propertiesPath(owner), { name: 'mine', label: 'Mine', propertyType: 'String' });

    const response = await call<ErrorJson>('PUT', propertiesPath(other), {
      id: created.body.id,
      label: 'X',
      propertyType: 'String',
    });

    expect(response.status).toBe(404);
  });
});

describe('an Enumeration property DynamoDB cannot store in one item', () => {
  /** 1,000 options of 1,000-character values and labels: about 2 MB, over DynamoDB's 400 KB item. */
  const longOptions = Array.from({ length: 1000 }, (_, index) => ({
    value: `${index}-${'v'.repeat(990)}`,
    label: `${index} ${'L'.repeat(990)}`,
  }));

  it('is refused on create with 400 naming options, and nothing is written', async () => {
    const eventTypeId = await newEventTypeId();

    const response = await call<ErrorJson>('POST', propertiesPath(eventTypeId), {
      name: 'huge',
      label: 'Huge',
      propertyType: 'Enumeration',
      options: longOptions,
    });
    const listed = await call<PropertyJson[]>('GET', propertiesPath(eventTypeId));
    const again = await call('POST', propertiesPath(eventTypeId), {
      name: 'huge',
      label: 'Huge',
      propertyType: 'Enumeration',
      options: longOptions.slice(0, 3),
    });

    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      category: 'VALIDATION_ERROR',
      context: { field: ['options'], options: ['1000'] },
    });
    expect(listed.body).toEqual([]);
    // The name was not claimed either.
    expect(again.status).toBe(200);
  });

  it('is refused on update with 400 naming options, and the stored property stays as it was', async () => {
    const eventTypeId = await newEventTypeId();
    const created = await call('POST', propertiesPath(eventTypeId), {
      name: 'tier',
      label: 'Tier',
      propertyType: 'Enumeration',
      options: [{ value: 'a', label: 'A' }],
    });

    const response = await call<ErrorJson>('PUT', propertiesPath(eventTypeId), {
      id: created.body.id,
      label: 'Tier',
      propertyType: 'Enumeration',
      options: longOptions,
    });
    const listed = await call<PropertyJson[]>('GET', propertiesPath(eventTypeId));

    expect(response.status).toBe(400);
    expect(response.body.context).toMatchObject({ field: ['options'] });
    expect(listed.body).toEqual([created.body]);
  });
});

describe('DELETE .../event-types/{eventTypeId}/properties/{propertyId}', () => {
  it('answers 204, the property is gone and its name is free again', async () => {
    const eventTypeId = await newEventTypeId();
    const created = await call('POST', propertiesPath(eventTypeId), {
      name: 'temp',
      label: 'Temp',
      propertyType: 'String',
    });

    const response = await call('DELETE', `${propertiesPath(eventTypeId)}/${created.body.id}`);
    const listed = await call<PropertyJson[]>('GET', propertiesPath(eventTypeId));
    const again = await call('POST', propertiesPath(eventTypeId), {
      name: 'temp',
      label: 'Temp again',
      propertyType: 'Numeric',
    });

    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expect(listed.body).toEqual([]);
    expect(again.status).toBe(200);
  });

  it('answers 404 for an unknown property id', async () => {
    const eventTypeId = await newEventTypeId();

    const response = await call<ErrorJson>('DELETE', `${propertiesPath(eventTypeId)}/123456789`);

    expect(response.status).toBe(404);
    expect(response.body.context).toEqual({ propertyId: ['123456789'] });
  });

  it('answers 404 for a non-numeric property id', async () => {
    const eventTypeId = await newEventTypeId();

    const response = await call<ErrorJson>('DELETE', `${propertiesPath(eventTypeId)}/abc`);

    expect(response.status).toBe(404);
  });
});
