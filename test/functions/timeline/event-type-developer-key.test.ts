import { Client } from '@hubspot/api-client';
import { createAccount, createUser } from '../../../shared/admin/provisioning';
import {
  authorizationCodeFor,
  install,
  jsonOf,
  postForm,
  unique,
  useTestGateway,
  type ErrorJson,
  type InstalledTokens,
  type TokenJson,
} from '../../support/harness';
import { callTimeline, type TimelineCredential } from '../../support/timeline-client';

/**
 * The app's timeline event types and properties are shared by every account that installed the app,
 * so an install's access token must not rewrite or delete them: writes take only the developer API
 * key of the app's developer account; tokens of any install may still read.
 */
const gateway = useTestGateway();
let hubA: InstalledTokens;
let hubBToken: string;
let eventTypeId: number;
let propertyId: number;
const eventId = 'hub-a-event';

const typesPath = () => `/integrations/v1/${hubA.appId}/timeline/event-types`;
const developerKey = (): TimelineCredential => ({ hapikey: hubA.developerApiKey });
const call = <T = Record<string, unknown>>(
  credential: TimelineCredential,
  method: string,
  path: string,
  body?: unknown,
) => callTimeline<T>(gateway.baseUrl, credential, method, path, body);

/** The same app installed by a second account (hub B) through the real token endpoint. */
async function installInSecondAccount(installation: InstalledTokens): Promise<string> {
  const account = await createAccount(`${unique('hub-b')}.example`);
  const user = await createUser(`${unique('user-b')}@example.com`, installation.password, [account.hubId]);
  const code = await authorizationCodeFor({
    ...installation,
    hubId: account.hubId,
    userId: user.userId,
    userEmail: user.email,
  });
  const response = await postForm(gateway.baseUrl, '/oauth/v1/token', {
    grant_type: 'authorization_code',
    client_id: installation.clientId,
    client_secret: installation.clientSecret,
    redirect_uri: installation.redirectUri,
    code,
  });
  const tokens = await jsonOf<TokenJson>(response);
  expect(tokens.hub_id).toBe(account.hubId);
  return tokens.access_token;
}

beforeAll(async () => {
  hubA = await install(gateway);
  hubBToken = await installInSecondAccount(hubA);
});

beforeEach(async () => {
  const type = await call<{ id: number }>(developerKey(), 'POST', typesPath(), {
    name: 'Webinar attended',
    headerTemplate: 'Attended **{{webinarName}}**',
  });
  eventTypeId = type.body.id;
  const property = await call<{ id: number }>(developerKey(), 'POST', `${typesPath()}/${eventTypeId}/properties`, {
    name: 'webinarName',
    label: 'Webinar',
    propertyType: 'String',
  });
  propertyId = property.body.id;
  const recorded = await call(hubA.accessToken, 'POST', `/integrations/v1/${hubA.appId}/timeline/event`, {
    id: eventId,
    eventTypeId,
    objectId: 901,
    webinarName: 'Q2',
  });
  expect([type.status, property.status, recorded.status]).toEqual([200, 200, 204]);
});

async function expectHubAUnharmed(): Promise<void> {
  const type = await call(hubA.accessToken, 'GET', `${typesPath()}/${eventTypeId}`);
  const properties = await call<{ name: string }[]>(
    hubA.accessToken,
    'GET',
    `${typesPath()}/${eventTypeId}/properties`,
  );
  const event = await call(
    hubA.accessToken,
    'GET',
    `/integrations/v1/${hubA.appId}/timeline/event/${eventTypeId}/${eventId}`,
  );
  expect(type.body).toMatchObject({ id: eventTypeId, headerTemplate: 'Attended **{{webinarName}}**' });
  expect(properties.body.map((property) => property.name)).toEqual(['webinarName']);
  expect(event.status).toBe(200);
}

describe('a token of another account that installed the app (hub B)', () => {
  it('cannot change the header template to a phishing link', async () => {
    const response = await call<ErrorJson>(hubBToken, 'PUT', `${typesPath()}/${eventTypeId}`, {
      headerTemplate: '[Log in again](https://evil.example/login)',
    });

    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({
      status: 'error',
      category: 'INVALID_AUTHENTICATION',
      correlationId: expect.any(String),
    });
    await expectHubAUnharmed();
  });

  it('cannot delete the event type', async () => {
    const response = await call<ErrorJson>(hubBToken, 'DELETE', `${typesPath()}/${eventTypeId}`);

    expect(response.status).toBe(401);
    await expectHubAUnharmed();
  });

  it("cannot create, change or delete the type's properties", async () => {
    const created = await call<ErrorJson>(hubBToken, 'POST', `${typesPath()}/${eventTypeId}/properties`, {
      name: 'phish',
      label: 'Phish',
      propertyType: 'String',
    });
    const updated = await call<ErrorJson>(hubBToken, 'PUT', `${typesPath()}/${eventTypeId}/properties`, {
      id: propertyId,
      name: 'webinarName',
      label: 'Click me',
      propertyType: 'String',
    });
    const deleted = await call<ErrorJson>(
      hubBToken,
      'DELETE',
      `${typesPath()}/${eventTypeId}/properties/${propertyId}`,
    );

    expect([created.status, updated.status, deleted.status]).toEqual([401, 401, 401]);
    await expectHubAUnharmed();
  });

  it('cannot create event types either', async () => {
    const response = await call<ErrorJson>(hubBToken, 'POST', typesPath(), { name: 'Squatted' });

    expect(response.status).toBe(401);
  });

  it('still reads the event types and records its own events', async () => {
    const type = await call(hubBToken, 'GET', `${typesPath()}/${eventTypeId}`);
    const recorded = await call(hubBToken, 'POST', `/integrations/v1/${hubA.appId}/timeline/event`, {
      id: eventId,
      eventTypeId,
      objectId: 902,
      webinarName: 'Hub B',
    });

    expect(type.status).toBe(200);
    expect(recorded.status).toBe(204);
  });
});

describe('the developer API key of the app', () => {
  it('changes and deletes the event type', async () => {
    const updated = await call(developerKey(), 'PUT', `${typesPath()}/${eventTypeId}`, {
      headerTemplate: 'Joined **{{webinarName}}**',
    });
    const deleted = await call(developerKey(), 'DELETE', `${typesPath()}/${eventTypeId}`);
    const read = await call(hubA.accessToken, 'GET', `${typesPath()}/${eventTypeId}`);

    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ headerTemplate: 'Joined **{{webinarName}}**' });
    expect(deleted.status).toBe(204);
    expect(read.status).toBe(404);
  });

  it('cannot record or read events: those belong to an account and need its access token', async () => {
    const recorded = await call<ErrorJson>(developerKey(), 'POST', `/integrations/v1/${hubA.appId}/timeline/event`, {
      id: unique('e'),
      eventTypeId,
      objectId: 1,
    });
    const read = await call<ErrorJson>(
      developerKey(),
      'GET',
      `/integrations/v1/${hubA.appId}/timeline/event/${eventTypeId}/${eventId}`,
    );

    expect([recorded.status, read.status]).toEqual([401, 401]);
  });

  it("is refused for another developer's app with 403, whether that app exists or not", async () => {
    const other = await install(gateway);

    const otherApp = await call<ErrorJson>(
      developerKey(),
      'PUT',
      `/integrations/v1/${other.appId}/timeline/event-types/${eventTypeId}`,
      { name: 'x' },
    );
    const noApp = await call<ErrorJson>(developerKey(), 'GET', '/integrations/v1/999999999999/timeline/event-types');

    expect(otherApp.status).toBe(403);
    expect(otherApp.body).toMatchObject({
      status: 'error',
      category: 'FORBIDDEN',
      context: { applicationId: [String(other.appId)] },
    });
    expect({ ...noApp.body, correlationId: '', message: '', context: {} }).toEqual({
      ...otherApp.body,
      correlationId: '',
      message: '',
      context: {},
    });
  });

  it('is judged alone when a request carries both a key and a token', async () => {
    const response = await fetch(`${gateway.baseUrl}${typesPath()}/${eventTypeId}?hapikey=wrong-key`, {
      headers: { authorization: `Bearer ${hubA.accessToken}` },
    });

    expect(response.status).toBe(401);
    expect((await jsonOf(response)).message).toBe("This hapikey doesn't exist.");
  });

  it('works from @hubspot/api-client constructed with developerApiKey, which sends it as ?hapikey=', async () => {
    const client = new Client({
      developerApiKey: hubA.developerApiKey,
      basePath: gateway.baseUrl,
      numberOfApiCallRetries: 0,
    });

    const updated = await client.apiRequest({
      method: 'PUT',
      path: `${typesPath()}/${eventTypeId}`,
      body: { name: 'Renamed by the SDK' },
    });
    const listed = await client.apiRequest({ method: 'GET', path: typesPath() });

    expect(updated.status).toBe(200);
    expect(await updated.json()).toMatchObject({ id: eventTypeId, name: 'Renamed by the SDK' });
    expect(((await listed.json()) as { id: number }[]).map((type) => type.id)).toContain(eventTypeId);
  });
});
