import type { RunningGateway } from '../../../local/local-gateway';
import { startLocalWebhooks, type LocalWebhooks } from '../../../local/local-webhooks';
import type { WebhookEvent } from '../../../shared/webhooks/webhook-events';
import { install, startTestGateway, type InstalledTokens } from '../../support/harness';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver';

/**
 * The webhook controls over HTTP: a flush delivers a test account's pending events at once, the
 * stream's unread changes included (the local poller here waits a minute between polls, so only the
 * flush reads them), and the deliveries listing shows the attempt; a reset voids what the stream
 * still holds of the account from before it. The flush machinery itself is tested in
 * test/shared/webhooks/account-flush.test.ts, the reset's filter in
 * test/shared/webhooks/reset-filter.test.ts.
 */
let gateway: RunningGateway;
let webhooks: LocalWebhooks;
let receiver: WebhookReceiver;
let developer: InstalledTokens;
const testHubs = new Set<number>();

beforeAll(async () => {
  gateway = await startTestGateway();
  webhooks = await startLocalWebhooks({
    endpoint: process.env.DYNAMODB_ENDPOINT ?? '',
    tableName: process.env.TABLE_NAME ?? '',
    pollIntervalMs: 60_000,
    acceptsHub: (hubId) => testHubs.has(hubId),
    startAtTip: true,
  });
  receiver = await startWebhookReceiver();
  developer = await install(gateway);
  expect((await call('PUT', `/webhooks/v3/${developer.appId}/settings`, { targetUrl: receiver.url })).status).toBe(200);
  for (const eventType of ['contact.creation', 'contact.deletion', 'contact.privacyDeletion']) {
    expect(
      (await call('POST', `/webhooks/v3/${developer.appId}/subscriptions`, { eventType, active: true })).status,
    ).toBe(201);
  }
});

afterAll(async () => {
  await webhooks.stop();
  await receiver.close();
  await gateway.close();
});

async function call<T = Record<string, unknown>>(
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const separator = path.includes('?') ? '&' : '?';
  const response = await fetch(
    `${gateway.baseUrl}${path}${separator}hapikey=${encodeURIComponent(developer.developerApiKey)}`,
    {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    },
  );
  const text = await response.text();
  return { status: response.status, body: (text === '' ? {} : JSON.parse(text)) as T };
}

/** A fresh test account of the developer with the app installed, its events accepted by the local runtime. */
async function installedTestAccount(name: string): Promise<number> {
  const created = await call<{ hubId: number }>('POST', '/sandbox/v1/test-accounts', { name });
  expect(created.status).toBe(201);
  const hubId = created.body.hubId;
  testHubs.add(hubId);
  expect(
    (
      await call('POST', `/sandbox/v1/test-accounts/${hubId}/installs`, {
        appId: developer.appId,
        scopes: developer.scopes,
      })
    ).status,
  ).toBe(201);
  return hubId;
}

async function loadContact(hubId: number, email: string): Promise<string> {
  const loaded = await call<{ ids: Record<string, string> }>('POST', `/sandbox/v1/test-accounts/${hubId}/fixtures`, {
    records: [{ ref: 'contact', objectType: 'contacts', properties: { email } }],
  });
  expect(loaded.status).toBe(201);
  return loaded.body.ids.contact ?? '';
}

it("delivers the account's pending events at once and lists the attempt", async () => {
  const hubId = await installedTestAccount('Webhooks');
  const jane = await loadContact(hubId, 'flush@example.com');

  const flushed = await call('POST', `/sandbox/v1/test-accounts/${hubId}/webhooks/flush`);

  expect(flushed).toEqual({ status: 200, body: { delivered: 1, failed: 0 } });
  const events: WebhookEvent[] = receiver.events();
  expect(
    events.filter((event) => event.subscriptionType === 'contact.creation').map((event) => String(event.objectId)),
  ).toEqual([jane]);
  const deliveries = await call<{ results: { statusCode?: number }[] }>(
    'GET',
    `/sandbox/v1/test-accounts/${hubId}/webhooks/deliveries`,
  );
  expect(deliveries.status).toBe(200);
  expect(deliveries.body.results.length).toBe(1);
  // Nothing is left: a second flush delivers nothing.
  expect((await call('POST', `/sandbox/v1/test-accounts/${hubId}/webhooks/flush`)).body).toEqual({
    delivered: 0,
    failed: 0,
  });
});

it('delivers nothing of a contact created before a reset, neither its creation nor its removal, and what comes after', async () => {
  const hubId = await installedTestAccount('Reset webhooks');
  await loadContact(hubId, 'before-reset@example.com');
  expect((await call('POST', `/sandbox/v1/test-accounts/${hubId}/reset`)).status).toBe(204);

  // The stream still holds the contact's creation and the reset's removal of it: the flush reads both.
  const afterReset = await call('POST', `/sandbox/v1/test-accounts/${hubId}/webhooks/flush`);
  const after = await loadContact(hubId, 'after-reset@example.com');
  const flushed = await call('POST', `/sandbox/v1/test-accounts/${hubId}/webhooks/flush`);

  expect(afterReset).toEqual({ status: 200, body: { delivered: 0, failed: 0 } });
  expect(flushed).toEqual({ status: 200, body: { delivered: 1, failed: 0 } });
  const events = receiver
    .events()
    .filter((event) => event.portalId === hubId)
    .map((event) => `${event.subscriptionType} ${event.objectId}`);
  expect(events).toEqual([`contact.creation ${after}`]);
});
