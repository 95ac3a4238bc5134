import {
  install,
  signTestAccessToken,
  useTestGateway,
  type ErrorJson,
  type InstalledTokens,
} from '../../support/harness';
import { callTimeline, type TimelineCredential } from '../../support/timeline-client';

interface EventTypeJson {
  id: number;
  name: string;
  headerTemplate: string | null;
  detailTemplate: string | null;
  objectType: string;
  applicationId: number;
}

const gateway = useTestGateway();
let installed: InstalledTokens;

beforeAll(async () => {
  installed = await install(gateway);
});

const typesPath = () => `/integrations/v1/${installed.appId}/timeline/event-types`;
/** Event types are managed with the app's developer API key; reads also take the app's access tokens. */
const call = <T = EventTypeJson>(
  method: string,
  path: string,
  body?: unknown,
  credential: TimelineCredential = { hapikey: installed.developerApiKey },
) => callTimeline<T>(gateway.baseUrl, credential, method, path, body);

async function createType(body: Record<string, unknown> = { name: 'Webinar attended' }): Promise<EventTypeJson> {
  const response = await call('POST', typesPath(), body);
  if (response.status !== 200) throw new Error(`create failed: ${response.status} ${response.text}`);
  return response.body;
}

describe('POST /integrations/v1/{appId}/timeline/event-types', () => {
  it('creates an event type and answers 200 with every field', async () => {
    const response = await call('POST', typesPath(), {
      applicationId: installed.appId,
      name: 'Webinar attended',
      headerTemplate: 'Attended **{{webinarName}}**',
      detailTemplate: 'Joined on {{#formatDate timestamp}}{{/formatDate}}',
      objectType: 'COMPANY',
    });

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json;charset=utf-8');
    expect(response.body).toEqual({
      id: expect.any(Number),
      name: 'Webinar attended',
      headerTemplate: 'Attended **{{webinarName}}**',
      detailTemplate: 'Joined on {{#formatDate timestamp}}{{/formatDate}}',
      objectType: 'COMPANY',
      applicationId: installed.appId,
    });
  });

  it('defaults objectType to CONTACT and the templates to null', async () => {
    const response = await call('POST', typesPath(), { name: 'Minimal' });

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ objectType: 'CONTACT', headerTemplate: null, detailTemplate: null });
  });

  it('rejects an empty name with 400 naming it', async () => {
    const response = await call<ErrorJson>('POST', typesPath(), { name: '   ' });

    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      status: 'error',
      category: 'VALIDATION_ERROR',
      context: { field: ['name'] },
    });
  });

  it('rejects an unknown objectType with 400', async () => {
    const response = await call<ErrorJson>('POST', typesPath(), { name: 'x', objectType: 'TICKET' });

    expect(response.status).toBe(400);
    expect(response.body.context?.field).toEqual(['body.objectType']);
  });

  it('rejects an applicationId in the body that differs from the path', async () => {
    const response = await call<ErrorJson>('POST', typesPath(), { name: 'x', applicationId: installed.appId + 1 });

    expect(response.status).toBe(400);
    expect(response.body.context).toMatchObject({ field: ['applicationId'] });
  });

  it('answers 401 to an access token, even one of the app itself: event types are managed with the developer API key', async () => {
    const response = await call<ErrorJson>('POST', typesPath(), { name: 'x' }, installed.accessToken);

    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({
      status: 'error',
      category: 'INVALID_AUTHENTICATION',
      correlationId: expect.any(String),
    });
    expect(response.body.message).toContain('hapikey');
  });

  it('answers 403 to the developer API key of another app', async () => {
    const other = await install(gateway);

    const response = await call<ErrorJson>('POST', typesPath(), { name: 'x' }, { hapikey: other.developerApiKey });

    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({
      status: 'error',
      category: 'FORBIDDEN',
      context: { applicationId: [String(installed.appId)] },
    });
  });

  it('answers 401 to an unknown developer API key', async () => {
    const response = await call<ErrorJson>(
      'POST',
      typesPath(),
      { name: 'x' },
      { hapikey: `${installed.developerApiKey}x` },
    );

    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({
      status: 'error',
      category: 'INVALID_AUTHENTICATION',
      message: "This hapikey doesn't exist.",
    });
  });

  it('answers 401 without any credentials', async () => {
    const response = await fetch(`${gateway.baseUrl}${typesPath()}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name":"x"}',
    });

    expect(response.status).toBe(401);
  });
});

describe('GET /integrations/v1/{appId}/timeline/event-types/{eventTypeId}', () => {
  it('reads back exactly what was created', async () => {
    const created = await createType({ name: 'Demo', headerTemplate: 'H', objectType: 'DEAL' });

    const response = await call('GET', `${typesPath()}/${created.id}`);

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: created.id,
      name: 'Demo',
      headerTemplate: 'H',
      detailTemplate: null,
      objectType: 'DEAL',
      applicationId: installed.appId,
    });
  });

  it('answers 404 with the error object for an unknown id', async () => {
    const response = await call<ErrorJson>('GET', `${typesPath()}/999999999`);

    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({
      status: 'error',
      category: 'OBJECT_NOT_FOUND',
      correlationId: expect.any(String),
    });
  });

  it('answers 404 for a non-numeric id', async () => {
    const response = await call<ErrorJson>('GET', `${typesPath()}/abc`);

    expect(response.status).toBe(404);
    expect(response.body.context).toEqual({ eventTypeId: ['abc'] });
  });

  it('answers 400 for a non-numeric app id', async () => {
    const response = await call<ErrorJson>('GET', '/integrations/v1/abc/timeline/event-types/1');

    expect(response.status).toBe(400);
    expect(response.body.context?.field).toEqual(['path.appId']);
  });

  it('answers 404 when the type belongs to another app, even with that app in the path', async () => {
    const other = await install(gateway);
    const created = await createType();

    const response = await callTimeline<ErrorJson>(
      gateway.baseUrl,
      other.accessToken,
      'GET',
      `/integrations/v1/${other.appId}/timeline/event-types/${created.id}`,
    );

    expect(response.status).toBe(404);
  });

  it('answers 403 when the path names another app', async () => {
    const created = await createType();
    const otherAppToken = signTestAccessToken({
      appId: installed.appId + 1000,
      hubId: installed.hubId,
      scopes: ['timeline'],
    });

    const response = await call<ErrorJson>('GET', `${typesPath()}/${created.id}`, undefined, otherAppToken);

    expect(response.status).toBe(403);
  });

  it('reads by an access token of the app as well as by the developer API key', async () => {
    const created = await createType({ name: 'Read both ways' });

    const byToken = await call('GET', `${typesPath()}/${created.id}`, undefined, installed.accessToken);
    const byKey = await call('GET', `${typesPath()}/${created.id}`);

    expect([byToken.status, byKey.status]).toEqual([200, 200]);
    expect(byToken.body).toEqual(created);
    expect(byKey.body).toEqual(created);
  });

  it('answers 403 MISSING_SCOPES to a token without the timeline scope', async () => {
    const created = await createType();
    const token = signTestAccessToken({ appId: installed.appId, hubId: installed.hubId, scopes: ['oauth'] });

    const response = await call<ErrorJson>('GET', `${typesPath()}/${created.id}`, undefined, token);

    expect(response.status).toBe(403);
    expect(response.body.category).toBe('MISSING_SCOPES');
  });
});

describe('GET /integrations/v1/{appId}/timeline/event-types', () => {
  it("lists the app's types as a bare array in id order", async () => {
    const app = await install(gateway);
    const path = `/integrations/v1/${app.appId}/timeline/event-types`;
    const first = await callTimeline<EventTypeJson>(gateway.baseUrl, { hapikey: app.developerApiKey }, 'POST', path, {
      name: 'One',
    });
    const second = await callTimeline<EventTypeJson>(gateway.baseUrl, { hapikey: app.developerApiKey }, 'POST', path, {
      name: 'Two',
      objectType: 'COMPANY',
    });

    const response = await callTimeline<EventTypeJson[]>(gateway.baseUrl, app.accessToken, 'GET', path);

    expect(response.status).toBe(200);
    expect(response.body).toEqual([first.body, second.body]);
  });

  it('answers an empty array for an app without types', async () => {
    const app = await install(gateway);

    const response = await callTimeline(
      gateway.baseUrl,
      app.accessToken,
      'GET',
      `/integrations/v1/${app.appId}/timeline/event-types`,
    );

    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
  });
});

describe('PUT /integrations/v1/{appId}/timeline/event-types/{eventTypeId}', () => {
  it('replaces the given fields, answers 200 with the type, and the change reads back', async () => {
    const created = await createType({ name: 'Before', headerTemplate: 'H', detailTemplate: 'D' });

    const response = await call('PUT', `${typesPath()}/${created.id}`, {
      name: 'After',
      headerTemplate: null,
      objectType: 'COMPANY',
    });
    const read = await call('GET', `${typesPath()}/${created.id}`);

    const expected = {
      id: created.id,
      name: 'After',
      headerTemplate: null,
      detailTemplate: 'D',
      objectType: 'COMPANY',
      applicationId: installed.appId,
    };
    expect(response.status).toBe(200);
    expect(response.body).toEqual(expected);
    expect(read.body).toEqual(expected);
  });

  it('answers 404 for an unknown type', async () => {
    const response = await call<ErrorJson>('PUT', `${typesPath()}/999999998`, { name: 'x' });

    expect(response.status).toBe(404);
    expect(response.body.category).toBe('OBJECT_NOT_FOUND');
  });

  it('rejects an unknown field with 400 naming it', async () => {
    const created = await createType();

    const response = await call<ErrorJson>('PUT', `${typesPath()}/${created.id}`, { name: 'x', color: 'red' });

    expect(response.status).toBe(400);
    expect(response.body.context?.field).toEqual(['body.color']);
  });
});

describe('DELETE /integrations/v1/{appId}/timeline/event-types/{eventTypeId}', () => {
  it('answers 204 with no body and the type is gone', async () => {
    const created = await createType();

    const response = await call('DELETE', `${typesPath()}/${created.id}`);
    const read = await call('GET', `${typesPath()}/${created.id}`);

    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expect(read.status).toBe(404);
  });

  it('answers 404 for a type already deleted', async () => {
    const created = await createType();
    await call('DELETE', `${typesPath()}/${created.id}`);

    const response = await call<ErrorJson>('DELETE', `${typesPath()}/${created.id}`);

    expect(response.status).toBe(404);
  });

  it("removes the type's properties with it", async () => {
    const created = await createType();
    await call('POST', `${typesPath()}/${created.id}/properties`, {
      name: 'webinarName',
      label: 'Webinar',
      propertyType: 'String',
    });

    await call('DELETE', `${typesPath()}/${created.id}`);
    const properties = await call<ErrorJson>('GET', `${typesPath()}/${created.id}/properties`);

    expect(properties.status).toBe(404);
  });

  it("answers 403 to another developer's key and 401 to an access token, and keeps the type", async () => {
    const created = await createType();
    const other = await install(gateway);

    const byOtherKey = await call('DELETE', `${typesPath()}/${created.id}`, undefined, {
      hapikey: other.developerApiKey,
    });
    const byToken = await call('DELETE', `${typesPath()}/${created.id}`, undefined, installed.accessToken);
    const read = await call('GET', `${typesPath()}/${created.id}`);

    expect([byOtherKey.status, byToken.status]).toEqual([403, 401]);
    expect(read.status).toBe(200);
  });
});

describe('schema errors stay small', () => {
  it('answers a body of 20,000 unknown long keys with a small 400', async () => {
    const body: Record<string, string> = { name: 'x' };
    for (let index = 0; index < 20_000; index += 1) body[`${'k'.repeat(400)}${index}`] = '';

    const response = await call<ErrorJson>('POST', typesPath(), body);

    expect(response.status).toBe(400);
    expect(response.body.errors).toHaveLength(50);
    expect(response.text.length).toBeLessThan(100_000);
  });
});
