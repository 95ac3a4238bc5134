import { Client } from '@hubspot/api-client';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../../shared/db/client';
import { webhookSubscriptionCountKey } from '../../../shared/db/keys';
import { provision, unique, useTestGateway, type ErrorJson, type Installation } from '../../support/harness';
import { callTimeline } from '../../support/timeline-client';

/** The webhooks v3 management API through the official SDK (`developerApiKey` sends ?hapikey=) and raw calls. */
const gateway = useTestGateway();
let app: Installation;
let client: Client;

const call = <T = ErrorJson>(method: string, path: string, body?: unknown, hapikey = app.developerApiKey) =>
  callTimeline<T>(gateway.baseUrl, { hapikey }, method, path, body);

beforeEach(async () => {
  app = await provision();
  client = new Client({ developerApiKey: app.developerApiKey, basePath: gateway.baseUrl, numberOfApiCallRetries: 0 });
});

/** The status the SDK saw when it threw (it throws on any status but the one it expects). */
async function sdkStatus(promise: Promise<unknown>): Promise<number | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return (error as { code?: number }).code;
  }
}

describe('settings', () => {
  it('configures, reads and clears the target through the SDK', async () => {
    const configured = await client.webhooks.settingsApi.configure(app.appId, {
      targetUrl: 'https://hooks.example.com/hubspot',
      throttling: { maxConcurrentRequests: 7 },
    });
    const read = await client.webhooks.settingsApi.getAll(app.appId);
    await client.webhooks.settingsApi.clear(app.appId);

    expect(configured).toMatchObject({
      targetUrl: 'https://hooks.example.com/hubspot',
      throttling: { maxConcurrentRequests: 7 },
    });
    expect(configured.createdAt).toBeInstanceOf(Date);
    expect(read.targetUrl).toBe('https://hooks.example.com/hubspot');
    expect(await sdkStatus(client.webhooks.settingsApi.getAll(app.appId))).toBe(404);
  });

  it('keeps createdAt when the target is replaced', async () => {
    const first = await client.webhooks.settingsApi.configure(app.appId, {
      targetUrl: 'https://a.example.com/',
      throttling: { maxConcurrentRequests: 10 },
    });
    const second = await client.webhooks.settingsApi.configure(app.appId, {
      targetUrl: 'https://b.example.com/',
      throttling: { maxConcurrentRequests: 10 },
    });

    expect(second.targetUrl).toBe('https://b.example.com/');
    expect(second.createdAt.toISOString()).toBe(first.createdAt.toISOString());
  });

  it('refuses an http target that is not on a loopback host (400 naming targetUrl)', async () => {
    const response = await call('PUT', `/webhooks/v3/${app.appId}/settings`, {
      targetUrl: 'http://hooks.example.com/',
      throttling: { maxConcurrentRequests: 5 },
    });

    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      category: 'VALIDATION_ERROR',
      context: { targetUrl: ['http://hooks.example.com/'] },
    });
  });

  it('accepts http on 127.0.0.1 in the local runtime', async () => {
    const response = await call('PUT', `/webhooks/v3/${app.appId}/settings`, {
      targetUrl: 'http://127.0.0.1:9/hooks',
      throttling: { maxConcurrentRequests: 5 },
    });

    expect(response.status).toBe(200);
  });

  it('keeps loopback in the local runtime, but still refuses other non-public addresses (400 naming targetUrl)', async () => {
    const allowed = ['https://localhost:8443/hooks', 'http://[::1]:9/hooks', 'https://127.0.0.2/hooks'];
    const refused = [
      'https://169.254.169.254/latest/meta-data/',
      'https://10.0.0.5/hooks',
      'https://[fd00::1]/hooks',
      'https://0xa9fea9fe/',
    ];
    const put = (targetUrl: string) =>
      call('PUT', `/webhooks/v3/${app.appId}/settings`, { targetUrl, throttling: { maxConcurrentRequests: 5 } });

    const allowedStatuses = [];
    for (const targetUrl of allowed) allowedStatuses.push((await put(targetUrl)).status);
    const refusals = [];
    for (const targetUrl of refused) refusals.push(await put(targetUrl));

    expect(allowedStatuses).toEqual([200, 200, 200]);
    expect(refusals.map((response) => [response.status, response.body.category, response.body.context])).toEqual(
      refused.map((targetUrl) => [400, 'VALIDATION_ERROR', { targetUrl: [targetUrl] }]),
    );
  });

  it('refuses more than 10 concurrent requests', async () => {
    const response = await call('PUT', `/webhooks/v3/${app.appId}/settings`, {
      targetUrl: 'https://a.example.com/',
      throttling: { maxConcurrentRequests: 11 },
    });

    expect(response.status).toBe(400);
    expect(response.body.category).toBe('VALIDATION_ERROR');
  });

  it('answers 404 to a delete when nothing is configured', async () => {
    expect(await sdkStatus(client.webhooks.settingsApi.clear(app.appId))).toBe(404);
  });
});

describe('subscriptions', () => {
  it('creates paused by default (201), lists, reads, activates and deletes through the SDK', async () => {
    const created = await client.webhooks.subscriptionsApi.create(app.appId, {
      eventType: 'company.creation' as never,
    });
    const id = Number(created.id);
    const listed = await client.webhooks.subscriptionsApi.getAll(app.appId);
    const activated = await client.webhooks.subscriptionsApi.update(id, app.appId, { active: true });
    const read = await client.webhooks.subscriptionsApi.getById(id, app.appId);
    await client.webhooks.subscriptionsApi.archive(id, app.appId);

    expect(created).toMatchObject({
      eventType: 'company.creation',
      active: false,
      id: expect.stringMatching(/^[0-9]+$/),
    });
    expect(listed.results.map((subscription) => subscription.id)).toEqual([created.id]);
    expect(activated.active).toBe(true);
    expect(read.active).toBe(true);
    expect(await sdkStatus(client.webhooks.subscriptionsApi.getById(id, app.appId))).toBe(404);
  });

  it('creates an active propertyChange subscription with its property', async () => {
    const created = await client.webhooks.subscriptionsApi.create(app.appId, {
      eventType: 'company.propertyChange' as never,
      propertyName: 'name',
      active: true,
    });

    expect(created).toMatchObject({ eventType: 'company.propertyChange', propertyName: 'name', active: true });
  });

  it('requires propertyName on a propertyChange subscription', async () => {
    const response = await call('POST', `/webhooks/v3/${app.appId}/subscriptions`, {
      eventType: 'company.propertyChange',
    });

    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ category: 'VALIDATION_ERROR', context: { propertyName: [] } });
  });

  it('refuses hs_lastmodifieddate and propertyName on other types', async () => {
    const lastModified = await call('POST', `/webhooks/v3/${app.appId}/subscriptions`, {
      eventType: 'company.propertyChange',
      propertyName: 'hs_lastmodifieddate',
    });
    const onCreation = await call('POST', `/webhooks/v3/${app.appId}/subscriptions`, {
      eventType: 'company.creation',
      propertyName: 'name',
    });

    expect([lastModified.status, onCreation.status]).toEqual([400, 400]);
    expect(lastModified.body.context).toEqual({ propertyName: ['hs_lastmodifieddate'] });
  });

  it('refuses event types this service does not emit', async () => {
    // Conversations are not served here, and products have no associationChange (HubSpot's list): both refused.
    for (const eventType of ['conversation.creation', 'product.associationChange']) {
      const response = await call('POST', `/webhooks/v3/${app.appId}/subscriptions`, { eventType });

      expect(response.status).toBe(400);
      expect(response.body.context).toEqual({ eventType: [eventType] });
    }
  });

  it('accepts the contact, deal and ticket types HubSpot names, contact.privacyDeletion among them', async () => {
    const created = [];
    for (const input of [
      { eventType: 'contact.creation' },
      { eventType: 'contact.propertyChange', propertyName: 'email' },
      { eventType: 'contact.privacyDeletion', objectTypeId: '0-1' },
      { eventType: 'contact.merge' },
      { eventType: 'deal.propertyChange', propertyName: 'dealstage' },
      { eventType: 'deal.restore', objectTypeId: '0-3' },
      { eventType: 'ticket.associationChange' },
      { eventType: 'ticket.deletion', objectTypeId: '0-5' },
    ]) {
      created.push(await call<{ eventType: string }>('POST', `/webhooks/v3/${app.appId}/subscriptions`, input));
    }

    expect(created.map((response) => [response.status, response.body.eventType])).toEqual([
      [201, 'contact.creation'],
      [201, 'contact.propertyChange'],
      [201, 'contact.privacyDeletion'],
      [201, 'contact.merge'],
      [201, 'deal.propertyChange'],
      [201, 'deal.restore'],
      [201, 'ticket.associationChange'],
      [201, 'ticket.deletion'],
    ]);
  });

  it('refuses a propertyChange of any object without propertyName, privacyDeletion of another object, and an objectTypeId of another object', async () => {
    const post = (body: Record<string, unknown>) => call('POST', `/webhooks/v3/${app.appId}/subscriptions`, body);

    const refusals = [
      await post({ eventType: 'deal.propertyChange' }),
      await post({ eventType: 'ticket.creation', propertyName: 'subject' }),
      await post({ eventType: 'deal.privacyDeletion' }),
      await post({ eventType: 'contact.creation', objectTypeId: '0-2' }),
      await post({ eventType: 'contact.creation', objectTypeId: '0-7' }),
    ];

    expect(refusals.map((response) => [response.status, response.body.context])).toEqual([
      [400, { propertyName: [] }],
      [400, { propertyName: ['subject'] }],
      [400, { eventType: ['deal.privacyDeletion'] }],
      [400, { objectTypeId: ['0-2'] }],
      [400, expect.anything()],
    ]);
  });

  it("refuses each object's events to an app that requests none of its read scopes; tickets take tickets or crm.objects.tickets.read", async () => {
    const companiesOnly = await provision({ scopes: ['oauth', 'crm.objects.companies.read'] });
    const granular = await provision({ scopes: ['oauth'], optionalScopes: ['crm.objects.tickets.read'] });
    const post = (installation: Installation, eventType: string) =>
      call('POST', `/webhooks/v3/${installation.appId}/subscriptions`, { eventType }, installation.developerApiKey);

    const answers = [
      await post(companiesOnly, 'contact.creation'),
      await post(companiesOnly, 'contact.privacyDeletion'),
      await post(companiesOnly, 'deal.creation'),
      await post(companiesOnly, 'ticket.creation'),
      await post(granular, 'ticket.creation'),
      await post(granular, 'deal.creation'),
    ];

    expect(answers.map((response) => [response.status, response.body.context])).toEqual([
      [400, { eventType: ['contact.creation'] }],
      [400, { eventType: ['contact.privacyDeletion'] }],
      [400, { eventType: ['deal.creation'] }],
      [400, { eventType: ['ticket.creation'] }],
      [201, undefined],
      [400, { eventType: ['deal.creation'] }],
    ]);
    expect(answers[0]?.body.message).toContain('crm.objects.contacts.read');
    expect(answers[3]?.body.message).toContain('tickets or crm.objects.tickets.read');
  });

  it('refuses company events to an app that does not request crm.objects.companies.read (400 naming eventType), writing nothing', async () => {
    const unscoped = await provision({ scopes: ['oauth', 'timeline'] });
    const post = (eventType: string, propertyName?: string) =>
      call(
        'POST',
        `/webhooks/v3/${unscoped.appId}/subscriptions`,
        { eventType, propertyName, active: true },
        unscoped.developerApiKey,
      );

    const refusals = [
      await post('company.creation'),
      await post('company.propertyChange', 'name'),
      await post('company.merge'),
    ];
    const listed = await call<{ results: unknown[] }>(
      'GET',
      `/webhooks/v3/${unscoped.appId}/subscriptions`,
      undefined,
      unscoped.developerApiKey,
    );

    expect(refusals.map((response) => [response.status, response.body.category, response.body.context])).toEqual([
      [400, 'VALIDATION_ERROR', { eventType: ['company.creation'] }],
      [400, 'VALIDATION_ERROR', { eventType: ['company.propertyChange'] }],
      [400, 'VALIDATION_ERROR', { eventType: ['company.merge'] }],
    ]);
    expect(refusals[0]?.body.message).toContain('crm.objects.companies.read');
    expect(listed.body.results).toEqual([]);
  });

  it('accepts company events from an app that requests crm.objects.companies.read only as an optional scope', async () => {
    const optional = await provision({ scopes: ['oauth'], optionalScopes: ['crm.objects.companies.read'] });

    const response = await call(
      'POST',
      `/webhooks/v3/${optional.appId}/subscriptions`,
      { eventType: 'company.creation' },
      optional.developerApiKey,
    );

    expect(response.status).toBe(201);
  });

  it('refuses the same subscription twice (409)', async () => {
    await call('POST', `/webhooks/v3/${app.appId}/subscriptions`, {
      eventType: 'company.propertyChange',
      propertyName: 'domain',
    });
    const again = await call('POST', `/webhooks/v3/${app.appId}/subscriptions`, {
      eventType: 'company.propertyChange',
      propertyName: 'domain',
    });

    expect(again.status).toBe(409);
    expect(again.body.category).toBe('CONFLICT');
  });

  it('can subscribe again after a delete', async () => {
    const first = await call<{ id: string }>('POST', `/webhooks/v3/${app.appId}/subscriptions`, {
      eventType: 'company.deletion',
    });
    await call('DELETE', `/webhooks/v3/${app.appId}/subscriptions/${first.body.id}`);
    const second = await call('POST', `/webhooks/v3/${app.appId}/subscriptions`, { eventType: 'company.deletion' });

    expect(second.status).toBe(201);
  });

  it("stops at 1,000 subscriptions per app with HubSpot's message", async () => {
    // 999 exist (the count item says so, as 999 creates would leave it): one more fits, the next does not.
    await db.send(
      new PutCommand({ TableName: tableName, Item: { ...webhookSubscriptionCountKey(app.appId), count: 999 } }),
    );
    const last = await call('POST', `/webhooks/v3/${app.appId}/subscriptions`, { eventType: 'company.deletion' });
    const over = await call('POST', `/webhooks/v3/${app.appId}/subscriptions`, { eventType: 'company.creation' });

    expect(last.status).toBe(201);
    expect(over.status).toBe(400);
    expect(over.body.message).toBe(
      "Couldn't create another subscription. You've reached the maximum number allowed per application (1000).",
    );
  });

  it('frees a place under the limit when a subscription is deleted', async () => {
    await db.send(
      new PutCommand({ TableName: tableName, Item: { ...webhookSubscriptionCountKey(app.appId), count: 999 } }),
    );
    const last = await call<{ id: string }>('POST', `/webhooks/v3/${app.appId}/subscriptions`, {
      eventType: 'company.deletion',
    });
    await call('DELETE', `/webhooks/v3/${app.appId}/subscriptions/${last.body.id}`);
    const again = await call('POST', `/webhooks/v3/${app.appId}/subscriptions`, { eventType: 'company.creation' });

    expect(again.status).toBe(201);
  });

  it('batch-updates through the SDK (200), and answers 207 naming missing ids while applying the rest', async () => {
    const a = await client.webhooks.subscriptionsApi.create(app.appId, { eventType: 'company.creation' as never });
    const b = await client.webhooks.subscriptionsApi.create(app.appId, { eventType: 'company.deletion' as never });
    const all = await client.webhooks.subscriptionsApi.updateBatch(app.appId, {
      inputs: [
        { id: Number(a.id), active: true },
        { id: Number(b.id), active: true },
      ],
    });
    const partial = await call<{
      results: { id: string; active: boolean }[];
      numErrors: number;
      errors: { context: { ids: string[] } }[];
    }>('POST', `/webhooks/v3/${app.appId}/subscriptions/batch/update`, {
      inputs: [
        { id: Number(a.id), active: false },
        { id: 999999999, active: true },
      ],
    });

    expect(all.status).toBe('COMPLETE');
    expect(all.results.map((result) => [result.id, result.active])).toEqual([
      [a.id, true],
      [b.id, true],
    ]);
    expect(partial.status).toBe(207);
    expect(partial.body.results).toEqual([expect.objectContaining({ id: a.id, active: false })]);
    expect(partial.body.errors[0]?.context.ids).toEqual(['999999999']);
  });

  it('answers 404 for an unknown or non-numeric subscription id', async () => {
    const unknown = await call('GET', `/webhooks/v3/${app.appId}/subscriptions/987654321`);
    const word = await call('PATCH', `/webhooks/v3/${app.appId}/subscriptions/abc`, { active: true });

    expect([unknown.status, word.status]).toEqual([404, 404]);
  });
});

describe('authentication', () => {
  it('answers 401 without a key and with an unknown key', async () => {
    const missing = await fetch(`${gateway.baseUrl}/webhooks/v3/${app.appId}/subscriptions`);
    const unknown = await call('GET', `/webhooks/v3/${app.appId}/subscriptions`, undefined, `${unique('nope')}`);

    expect(missing.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(unknown.body.category).toBe('INVALID_AUTHENTICATION');
  });

  it('answers 403 to the key of another developer, and leaves the app untouched', async () => {
    const other = await provision();
    const response = await call(
      'PUT',
      `/webhooks/v3/${app.appId}/settings`,
      { targetUrl: 'https://evil.example/' },
      other.developerApiKey,
    );

    expect(response.status).toBe(403);
    expect(await sdkStatus(client.webhooks.settingsApi.getAll(app.appId))).toBe(404);
  });
});
