import { Signature } from '@hubspot/api-client';
import type { RunningGateway } from '../../../local/local-gateway';
import { startLocalWebhooks, type LocalWebhooks } from '../../../local/local-webhooks';
import {
  authorizationCodeFor,
  install,
  installInto,
  jsonOf,
  postForm,
  provision,
  startTestGateway,
  type InstalledTokens,
  type TokenJson,
} from '../../support/harness';
import { createRecord, crmClient, type CompanyJson, type CrmClient } from '../../support/crm-client';
import { callTimeline } from '../../support/timeline-client';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver';
import type { WebhookEvent } from '../../../shared/webhooks/webhook-events';
import { createAccount, createUser } from '../../../shared/admin/provisioning';
import { replayDeadLetters } from '../../../shared/webhooks/delivery-queue';
import { maxDeliveryAttempts } from '../../../shared/webhooks/retry-schedule';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Webhooks end to end in the local runtime: CRM writes through the gateway, the table's stream on
 * DynamoDB Local, event generation, the in-process queue (retry delays scaled down 100 times) and
 * signed POSTs to a real receiver on 127.0.0.1.
 */
let gateway: RunningGateway;
let webhooks: LocalWebhooks;
let receiver: WebhookReceiver;
let app: InstalledTokens;
let crm: CrmClient;
const hubs = new Set<number>();

const manage = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) =>
  callTimeline<T>(gateway.baseUrl, { hapikey: app.developerApiKey }, method, `/webhooks/v3/${app.appId}${path}`, body);

async function subscribe(eventType: string, propertyName?: string): Promise<number> {
  const response = await manage<{ id: string }>('POST', '/subscriptions', { eventType, propertyName, active: true });
  expect(response.status).toBe(201);
  return Number(response.body.id);
}

async function createCompany(client: CrmClient, name: string): Promise<string> {
  const response = await client.post<CompanyJson>('/crm/v3/objects/companies', { properties: { name } });
  expect(response.status).toBe(201);
  return response.body.id;
}

const ofType = (type: string, objectId?: string) => (event: WebhookEvent) =>
  event.subscriptionType === type && (objectId === undefined || String(event.objectId) === objectId);

beforeAll(async () => {
  gateway = await startTestGateway();
  webhooks = await startLocalWebhooks({
    endpoint: process.env.DYNAMODB_ENDPOINT ?? '',
    tableName: process.env.TABLE_NAME ?? '',
    delayScale: 0.01,
    pollIntervalMs: 50,
    acceptsHub: (hubId) => hubs.has(hubId),
    startAtTip: true,
  });
});

afterAll(async () => {
  await webhooks.stop();
  await gateway.close();
});

beforeEach(async () => {
  receiver = await startWebhookReceiver();
  app = await install(gateway);
  hubs.add(app.hubId);
  crm = crmClient(gateway, app.accessToken);
  expect(
    (await manage('PUT', '/settings', { targetUrl: receiver.url, throttling: { maxConcurrentRequests: 10 } })).status,
  ).toBe(200);
});

afterEach(async () => {
  await webhooks.settle();
  await receiver.close();
});

describe('events', () => {
  it("delivers creation, propertyChange and deletion with HubSpot's fields", async () => {
    const creation = await subscribe('company.creation');
    const nameChange = await subscribe('company.propertyChange', 'name');
    const deletion = await subscribe('company.deletion');
    const writtenAt = Date.now();
    const companyId = await createCompany(crm, 'Webhook Co');
    expect(
      (await crm.patch(`/crm/v3/objects/companies/${companyId}`, { properties: { name: 'Webhook Co 2' } })).status,
    ).toBe(200);
    expect((await crm.delete(`/crm/v3/objects/companies/${companyId}`)).status).toBe(204);

    await receiver.waitFor(() => receiver.events().some(ofType('company.deletion', companyId)));
    const events = receiver.events();
    const created = events.find(ofType('company.creation', companyId));
    const renamed = events.filter(ofType('company.propertyChange', companyId));
    const deleted = events.find(ofType('company.deletion', companyId));

    expect(created).toEqual({
      eventId: expect.any(Number),
      subscriptionId: creation,
      portalId: app.hubId,
      appId: app.appId,
      occurredAt: expect.any(Number),
      subscriptionType: 'company.creation',
      attemptNumber: 0,
      objectId: Number(companyId),
      changeSource: 'INTEGRATION',
      changeFlag: 'CREATED',
      sourceId: String(app.appId),
    });
    expect(created?.occurredAt).toBeGreaterThanOrEqual(writtenAt - 1000);
    // The name set at creation and the rename: one event each, for the name subscription only. Deliveries
    // carry no order (as HubSpot's), so they are compared as a set.
    const byValue = [...renamed].sort((a, b) => String(a.propertyValue).localeCompare(String(b.propertyValue)));
    expect(byValue.map((event) => [event.subscriptionId, event.propertyName, event.propertyValue])).toEqual([
      [nameChange, 'name', 'Webhook Co'],
      [nameChange, 'name', 'Webhook Co 2'],
    ]);
    expect(deleted).toMatchObject({
      subscriptionId: deletion,
      changeFlag: 'DELETED',
      objectId: Number(companyId),
      attemptNumber: 0,
    });
  });

  it("delivers associationChange with the association's fields, added and removed, from each record's side", async () => {
    await subscribe('company.associationChange');
    await subscribe('contact.associationChange');
    const companyId = await createCompany(crm, 'Assoc Co');
    // Both ends are stored records: the association is written on the company and on the contact.
    const contactId = await createRecord(crm, 'contacts');
    const path = `/crm/v3/objects/companies/${companyId}/associations/contacts/${contactId}/280`;
    expect((await crm.put(path)).status).toBe(200);
    expect((await crm.delete(path)).status).toBe(204);

    await receiver.waitFor(
      () =>
        receiver.events().filter(ofType('company.associationChange', companyId)).length >= 2 &&
        receiver.events().filter(ofType('contact.associationChange', contactId)).length >= 2,
    );
    // Unordered deliveries: the added one first, then the removed one, whichever arrived first.
    const fieldsOf = (type: string, objectId: string) =>
      receiver
        .events()
        .filter(ofType(type, objectId))
        .sort((a, b) => Number(a.associationRemoved) - Number(b.associationRemoved))
        .map(({ associationType, fromObjectId, toObjectId, associationRemoved, isPrimaryAssociation }) => ({
          associationType,
          fromObjectId,
          toObjectId,
          associationRemoved,
          isPrimaryAssociation,
        }));

    expect(fieldsOf('company.associationChange', companyId)).toEqual([
      {
        associationType: 'COMPANY_TO_CONTACT',
        fromObjectId: Number(companyId),
        toObjectId: Number(contactId),
        associationRemoved: false,
        isPrimaryAssociation: false,
      },
      {
        associationType: 'COMPANY_TO_CONTACT',
        fromObjectId: Number(companyId),
        toObjectId: Number(contactId),
        associationRemoved: true,
        isPrimaryAssociation: false,
      },
    ]);
    expect(fieldsOf('contact.associationChange', contactId)).toEqual([
      {
        associationType: 'CONTACT_TO_COMPANY',
        fromObjectId: Number(contactId),
        toObjectId: Number(companyId),
        associationRemoved: false,
        isPrimaryAssociation: false,
      },
      {
        associationType: 'CONTACT_TO_COMPANY',
        fromObjectId: Number(contactId),
        toObjectId: Number(companyId),
        associationRemoved: true,
        isPrimaryAssociation: false,
      },
    ]);
    // Each side's events go to its own subscription only: nothing else is about these two records.
    await webhooks.settle(100);
    expect(
      receiver
        .events()
        .filter((event) => [companyId, contactId].includes(String(event.objectId)))
        .map((event) => event.subscriptionType)
        .sort(),
    ).toEqual([
      'company.associationChange',
      'company.associationChange',
      'contact.associationChange',
      'contact.associationChange',
    ]);
  });

  it('delivers merge with the primary, the merged ids and the new record', async () => {
    await subscribe('company.merge');
    const primary = await createCompany(crm, 'Primary Co');
    const secondary = await crm.post<CompanyJson>('/crm/v3/objects/companies', {
      properties: { name: 'Secondary Co', city: 'Boston' },
    });
    const merged = await crm.post<CompanyJson>('/crm/v3/objects/companies/merge', {
      primaryObjectId: primary,
      objectIdToMerge: secondary.body.id,
    });
    expect(merged.status).toBe(200);

    await receiver.waitFor(() => receiver.events().some(ofType('company.merge')));
    const event = receiver.events().find(ofType('company.merge'));

    expect(event).toMatchObject({
      objectId: Number(merged.body.id),
      newObjectId: Number(merged.body.id),
      primaryObjectId: Number(primary),
      mergedObjectIds: [Number(primary), Number(secondary.body.id)],
      numberOfPropertiesMoved: 1,
      changeFlag: 'MERGED',
      attemptNumber: 0,
    });
  });

  it('signs every delivery so the SDK accepts v1 and v3', async () => {
    await subscribe('company.creation');
    await createCompany(crm, 'Signed Co');

    await receiver.waitFor((deliveries) => deliveries.length > 0);
    const [delivery] = receiver.deliveries;
    if (!delivery) throw new Error('no delivery');
    const header = (name: string) => String(delivery.headers[name.toLowerCase()]);

    expect(header('X-HubSpot-Signature-Version')).toBe('v1');
    expect(
      Signature.isValid({
        signature: header('X-HubSpot-Signature'),
        clientSecret: app.clientSecret,
        requestBody: delivery.body,
        signatureVersion: 'v1',
      }),
    ).toBe(true);
    expect(
      Signature.isValid({
        signature: header('X-HubSpot-Signature-v3'),
        clientSecret: app.clientSecret,
        requestBody: delivery.body,
        signatureVersion: 'v3',
        url: delivery.url,
        method: 'POST',
        timestamp: Number(header('X-HubSpot-Request-Timestamp')),
      }),
    ).toBe(true);
    expect(
      Signature.isValid({
        signature: header('X-HubSpot-Signature'),
        clientSecret: 'wrong secret',
        requestBody: delivery.body,
        signatureVersion: 'v1',
      }),
    ).toBe(false);
  });
});

describe('retries', () => {
  it('retries a receiver that fails twice: attempts 0, 1, 2 of the same event ids', async () => {
    await subscribe('company.creation');
    receiver.respondWith((index) => (index < 2 ? 503 : 200));
    await createCompany(crm, 'Flaky Co');

    await receiver.waitFor((deliveries) => deliveries.length >= 3);
    const [first, second, third] = receiver.deliveries;

    expect(receiver.deliveries.map((delivery) => delivery.events.map((event) => event.attemptNumber))).toEqual([
      [0],
      [1],
      [2],
    ]);
    expect(second?.events[0]?.eventId).toBe(first?.events[0]?.eventId);
    expect(third?.events[0]?.eventId).toBe(first?.events[0]?.eventId);
    await webhooks.settle();
    expect(receiver.deliveries).toHaveLength(3);
  });

  it('logs every attempt in the delivery log, newest first', async () => {
    await subscribe('company.creation');
    receiver.respondWith((index) => (index < 1 ? 500 : 204));
    await createCompany(crm, 'Logged Co');
    await receiver.waitFor((deliveries) => deliveries.length >= 2);
    await webhooks.settle();

    const log = await manage<{
      results: { statusCode: number; attemptNumber: number; outcome: string; eventIds: string[]; latencyMs: number }[];
    }>('GET', '/deliveries');

    expect(log.status).toBe(200);
    expect(log.body.results.map((row) => [row.attemptNumber, row.statusCode, row.outcome])).toEqual([
      [1, 204, 'delivered'],
      [0, 500, 'failed'],
    ]);
    expect(log.body.results[0]?.eventIds).toEqual(receiver.deliveries[0]?.events.map((event) => String(event.eventId)));
  });
});

describe('the dead-letter queue', () => {
  it('parks a batch after 10 failed attempts, and the replay delivers it again as attempt 0', async () => {
    // A runtime of its own, for its own account, with the ~24 h schedule squeezed into about a second.
    hubs.delete(app.hubId);
    const stateDir = mkdtempSync(path.join(tmpdir(), 'webhooks-dlq-'));
    const fast = await startLocalWebhooks({
      endpoint: process.env.DYNAMODB_ENDPOINT ?? '',
      tableName: process.env.TABLE_NAME ?? '',
      delayScale: 0.00001,
      pollIntervalMs: 50,
      stateDir,
      acceptsHub: (hubId) => hubId === app.hubId,
      startAtTip: true,
    });
    try {
      await subscribe('company.creation');
      receiver.respondWith(() => 500);
      const companyId = await createCompany(crm, 'Doomed Co');
      await receiver.waitFor((deliveries) => deliveries.length >= maxDeliveryAttempts);
      await fast.settle(1000);

      expect(receiver.deliveries.map((delivery) => delivery.events[0]?.attemptNumber)).toEqual([
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
      ]);
      expect(fast.queue.deadLettered().map((batch) => batch.events.map((event) => String(event.objectId)))).toEqual([
        [companyId],
      ]);

      receiver.respondWith(() => 200);
      expect(await replayDeadLetters(stateDir)).toBe(1);
      await receiver.waitFor((deliveries) => deliveries.length === maxDeliveryAttempts + 1);
      const replayed = receiver.deliveries.at(-1)?.events[0];
      expect(replayed).toMatchObject({
        objectId: Number(companyId),
        attemptNumber: 0,
        eventId: receiver.deliveries[0]?.events[0]?.eventId,
      });
      expect(fast.queue.deadLettered()).toEqual([]);
    } finally {
      await fast.stop();
    }
  });
});

describe('what stops deliveries', () => {
  it('sends nothing for a paused subscription', async () => {
    const id = await subscribe('company.creation');
    expect((await manage('PATCH', `/subscriptions/${id}`, { active: false })).status).toBe(200);
    await createCompany(crm, 'Paused Co');

    await webhooks.settle(100);
    expect(receiver.deliveries).toHaveLength(0);
  });

  it('sends nothing once the settings are deleted, and again once a target is set', async () => {
    await subscribe('company.creation');
    expect((await manage('DELETE', '/settings')).status).toBe(204);
    await createCompany(crm, 'No Target Co');
    await webhooks.settle(100);
    expect(receiver.deliveries).toHaveLength(0);

    expect((await manage('PUT', '/settings', { targetUrl: receiver.url })).status).toBe(200);
    const companyId = await createCompany(crm, 'Target Again Co');
    await receiver.waitFor(() => receiver.events().some(ofType('company.creation', companyId)));
    expect(receiver.events().every((event) => String(event.objectId) === companyId)).toBe(true);
  });

  it("sends another account's changes to nobody, and nothing to an app not installed there", async () => {
    await subscribe('company.creation');
    // The same app in a second account: its changes go out with that account's portalId.
    const account = await createAccount(`hub-b-${Date.now()}.example`);
    const user = await createUser(`b-${Date.now()}@example.com`, app.password, [account.hubId]);
    const code = await authorizationCodeFor({
      ...app,
      hubId: account.hubId,
      userId: user.userId,
      userEmail: user.email,
    });
    const tokens = await jsonOf<TokenJson>(
      await postForm(gateway.baseUrl, '/oauth/v1/token', {
        grant_type: 'authorization_code',
        client_id: app.clientId,
        client_secret: app.clientSecret,
        redirect_uri: app.redirectUri,
        code,
      }),
    );
    hubs.add(account.hubId);
    // A second app, installed elsewhere, writes in its own account, where our app is not installed.
    const stranger = await install(gateway);
    hubs.add(stranger.hubId);
    const strangerId = await createCompany(crmClient(gateway, stranger.accessToken), 'Stranger Co');
    const mineId = await createCompany(crmClient(gateway, tokens.access_token), 'Hub B Co');

    await receiver.waitFor(() => receiver.events().some(ofType('company.creation', mineId)));
    await webhooks.settle(100);
    expect(receiver.events().map((event) => [String(event.objectId), event.portalId])).toEqual([
      [mineId, account.hubId],
    ]);
    expect(receiver.events().some((event) => String(event.objectId) === strangerId)).toBe(false);
  });
});

describe('scopes', () => {
  it("sends an account's company events only to apps whose install there holds crm.objects.companies.read", async () => {
    // An app asks for companies.read only as an optional scope and is installed in our
    // account with `oauth` alone (every company route answers it 403), yet subscribes to company events.
    const narrow = await provision({ scopes: ['oauth'], optionalScopes: ['crm.objects.companies.read'] });
    const narrowToken = await installInto(gateway, narrow, app, ['oauth']);
    const narrowReceiver = await startWebhookReceiver();
    try {
      const manageNarrow = (method: string, path: string, body?: unknown) =>
        callTimeline(
          gateway.baseUrl,
          { hapikey: narrow.developerApiKey },
          method,
          `/webhooks/v3/${narrow.appId}${path}`,
          body,
        );
      expect((await manageNarrow('PUT', '/settings', { targetUrl: narrowReceiver.url })).status).toBe(200);
      for (const subscription of [
        { eventType: 'company.creation' },
        ...['name', 'annualrevenue'].map((propertyName) => ({ eventType: 'company.propertyChange', propertyName })),
      ]) {
        expect((await manageNarrow('POST', '/subscriptions', { ...subscription, active: true })).status).toBe(201);
      }
      expect((await crmClient(gateway, narrowToken).get('/crm/v3/objects/companies')).status).toBe(403);
      // Our app (it holds the scope) is the control: its events prove the change went through the pipeline.
      await subscribe('company.propertyChange', 'annualrevenue');

      const response = await crm.post<CompanyJson>('/crm/v3/objects/companies', {
        properties: { name: 'Scoped Co', annualrevenue: '1000000' },
      });
      expect(response.status).toBe(201);
      await receiver.waitFor(() => receiver.events().some(ofType('company.propertyChange', response.body.id)));
      await webhooks.settle(100);

      expect(narrowReceiver.deliveries).toHaveLength(0);
    } finally {
      await narrowReceiver.close();
    }
  });
});

describe('throttling.maxConcurrentRequests', () => {
  it('holds for the app across accounts: 1 means one request at a time, whichever accounts the batches are for', async () => {
    // A limit per account would let a receiver set to 1 see 2 concurrent requests from 2 accounts.
    await subscribe('company.creation');
    expect(
      (await manage('PUT', '/settings', { targetUrl: receiver.url, throttling: { maxConcurrentRequests: 1 } })).status,
    ).toBe(200);
    const account = await createAccount(`hub-c-${Date.now()}.example`);
    const user = await createUser(`c-${Date.now()}@example.com`, app.password, [account.hubId]);
    const otherToken = await installInto(gateway, app, {
      hubId: account.hubId,
      userId: user.userId,
      userEmail: user.email,
    });
    hubs.add(account.hubId);
    receiver.holdFor(800);

    const ids = await Promise.all(
      [crm, crmClient(gateway, otherToken)].flatMap((client) =>
        [1, 2].map((index) => createCompany(client, `Throttled ${index}`)),
      ),
    );
    await receiver.waitFor(() => ids.every((id) => receiver.events().some(ofType('company.creation', id))), 30_000);

    expect(new Set(receiver.events().map((event) => event.portalId))).toEqual(new Set([app.hubId, account.hubId]));
    expect(receiver.peakInFlight()).toBe(1);
  });
});
