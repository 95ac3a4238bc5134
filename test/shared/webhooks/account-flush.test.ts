import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { RunningGateway } from '../../../local/local-gateway';
import { startLocalWebhooks, type LocalWebhooks } from '../../../local/local-webhooks';
import { createAccount, createUser } from '../../../shared/admin/provisioning';
import { ValidationError } from '../../../shared/base/errors';
import { db, tableName } from '../../../shared/db/client';
import { accountKey } from '../../../shared/db/keys';
import { listPendingBatches } from '../../../shared/db/webhook-pending';
import {
  acquireInFlightSlot,
  insertDeliveryAttempt,
  releaseInFlightSlot,
  type DeliveryAttempt,
} from '../../../shared/db/webhooks';
import { flushAccountWebhooks, listAccountDeliveries } from '../../../shared/webhooks/account-flush';
import { deliverBatch } from '../../../shared/webhooks/deliver-batch';
import type { DeliveryBatch } from '../../../shared/webhooks/delivery-queue';
import { maxConcurrentRequestsLimit } from '../../../shared/webhooks/subscription-types';
import { pendingIdOf, queueTracked } from '../../../shared/webhooks/pending-batches';
import { drainStream } from '../../../shared/webhooks/stream-drain';
import { crmClient, type CompanyJson, type CrmClient } from '../../support/crm-client';
import { install, installInto, provision, startTestGateway, type InstalledTokens } from '../../support/harness';
import { callTimeline } from '../../support/timeline-client';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver';
import { recordingQueue } from '../../support/recording-queue';

/**
 * Webhooks on demand for test accounts, against DynamoDB Local and a real receiver: the local
 * runtime with the real retry schedule (a retry is 24-60 s away, so only a flush can deliver it
 * within a test) and a stream poll so rare that only a flush (its drain of the stream) or
 * settle() reads the stream.
 */
let gateway: RunningGateway;
let webhooks: LocalWebhooks;
let receiver: WebhookReceiver;
const hubs = new Set<number>();

interface Subject {
  app: InstalledTokens;
  crm: CrmClient;
  subscribe(eventType: string): Promise<void>;
}

/** An app installed in an account of its own (a test account unless told), its target the receiver. */
async function subject(options: { isTestAccount?: boolean; maxConcurrentRequests?: number } = {}): Promise<Subject> {
  const app = await install(gateway);
  hubs.add(app.hubId);
  if (options.isTestAccount ?? true) await markTestAccount(app.hubId, app.developerId);
  const manage = (method: string, path: string, body?: unknown) =>
    callTimeline(gateway.baseUrl, { hapikey: app.developerApiKey }, method, `/webhooks/v3/${app.appId}${path}`, body);
  const settings = await manage('PUT', '/settings', {
    targetUrl: receiver.url,
    throttling: { maxConcurrentRequests: options.maxConcurrentRequests ?? 10 },
  });
  expect(settings.status).toBe(200);
  return {
    app,
    crm: crmClient(gateway, app.accessToken),
    async subscribe(eventType) {
      expect((await manage('POST', '/subscriptions', { eventType, active: true })).status).toBe(201);
    },
  };
}

/** What the sandbox controls' create does to an account: its item names the developer account (shared/db/accounts.ts). */
async function markTestAccount(hubId: number, developerId: number): Promise<void> {
  await db.send(
    new UpdateCommand({
      TableName: tableName,
      Key: accountKey(hubId),
      UpdateExpression: 'SET developerId = :developer',
      ExpressionAttributeValues: { ':developer': developerId },
    }),
  );
}

async function createCompany(crm: CrmClient, name: string): Promise<string> {
  const response = await crm.post<CompanyJson>('/crm/v3/objects/companies', { properties: { name } });
  expect(response.status).toBe(201);
  return response.body.id;
}

const pendingOf = (hubId: number) => listPendingBatches(hubId, 100);
const flush = (hubId: number) => flushAccountWebhooks(hubId, Number.POSITIVE_INFINITY);

async function until(predicate: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const batchOf = (appId: number, portalId: number, eventId: number): DeliveryBatch => ({
  appId,
  portalId,
  attemptNumber: 0,
  events: [
    {
      eventId,
      subscriptionId: 1,
      portalId,
      appId,
      occurredAt: Date.now(),
      subscriptionType: 'company.creation',
      attemptNumber: 0,
      objectId: eventId,
      changeSource: 'API',
      changeFlag: 'CREATED',
    },
  ],
});

beforeAll(async () => {
  gateway = await startTestGateway();
  webhooks = await startLocalWebhooks({
    endpoint: process.env.DYNAMODB_ENDPOINT ?? '',
    tableName: process.env.TABLE_NAME ?? '',
    pollIntervalMs: 600_000,
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
});

afterEach(async () => {
  await webhooks.settle();
  await receiver.close();
});

describe('flushAccountWebhooks', () => {
  it("delivers a test account's change at once, counted in events, and leaves nothing pending", async () => {
    const { app, crm, subscribe } = await subject();
    await subscribe('company.creation');
    const companyId = await createCompany(crm, 'Flushed Co');

    expect(await flush(app.hubId)).toEqual({ delivered: 1, failed: 0 });
    expect(receiver.events().map((event) => [event.subscriptionType, String(event.objectId), event.portalId])).toEqual([
      ['company.creation', companyId, app.hubId],
    ]);
    expect(await pendingOf(app.hubId)).toEqual([]);
    expect(await flush(app.hubId)).toEqual({ delivered: 0, failed: 0 });
  });

  it('counts a failed attempt as failed, keeps its retry pending on the usual schedule, and delivers it on the next flush', async () => {
    const { app, crm, subscribe } = await subject();
    await subscribe('company.creation');
    receiver.respondWith(() => 503);
    await createCompany(crm, 'Failing Co');

    expect(await flush(app.hubId)).toEqual({ delivered: 0, failed: 1 });
    const [retry, ...others] = await pendingOf(app.hubId);
    expect(others).toEqual([]);
    expect(retry).toMatchObject({ appId: app.appId, attemptNumber: 1, eventCount: 1 });
    expect(retry?.claimedBy).toBeUndefined();
    // The first retry is due 24 to 60 s after the failure (retry-schedule.ts).
    expect((retry?.dueAtMs ?? 0) - (retry?.queuedAtMs ?? 0)).toBeGreaterThanOrEqual(24_000);

    // No time left: nothing is started, the retry stays.
    expect(await flushAccountWebhooks(app.hubId, performance.now())).toEqual({ delivered: 0, failed: 0 });
    expect(await pendingOf(app.hubId)).toHaveLength(1);

    receiver.respondWith(() => 200);
    expect(await flush(app.hubId)).toEqual({ delivered: 1, failed: 0 });
    expect(receiver.deliveries.map((delivery) => [delivery.status, delivery.events[0]?.attemptNumber])).toEqual([
      [503, 0],
      [200, 1],
    ]);
    expect(receiver.deliveries[1]?.events[0]?.eventId).toBe(receiver.deliveries[0]?.events[0]?.eventId);
    expect(await pendingOf(app.hubId)).toEqual([]);
  });

  it('waits for a batch the deliverer is posting, counts it, and does not post it twice', async () => {
    const { app, crm, subscribe } = await subject();
    await subscribe('company.creation');
    // The deliverer's request is answered only when the test says so: with a fixed hold (800 ms), a
    // loaded machine once read the pending batch after the answer, and found it gone.
    let release: (() => void) | undefined;
    receiver.holdUntil(new Promise<void>((resolve) => (release = resolve)));
    await createCompany(crm, 'In Flight Co');
    // The stream read now: the in-process queue hands the batch to its deliverer at once.
    await drainStream();
    await until(() => receiver.peakInFlight() >= 1);
    const [held] = await pendingOf(app.hubId);
    expect(held?.claimedBy).toEqual(expect.any(String));

    // The flush lists the batch as held and polls it every 100 ms; the answer comes a second after it began.
    const flushed = flush(app.hubId);
    setTimeout(() => release?.(), 1000);
    expect(await flushed).toEqual({ delivered: 1, failed: 0 });
    // Answered once the attempt ended: the receiver has it, once.
    expect(receiver.deliveries).toHaveLength(1);
    expect(await pendingOf(app.hubId)).toEqual([]);
    await webhooks.settle();
    expect(receiver.deliveries).toHaveLength(1);
  });

  it("respects the app's maxConcurrentRequests: waits for a place another request holds", async () => {
    const { app, crm, subscribe } = await subject({ maxConcurrentRequests: 1 });
    await subscribe('company.creation');
    receiver.respondWith(() => 503);
    await createCompany(crm, 'Busy Co');
    expect(await flush(app.hubId)).toEqual({ delivered: 0, failed: 1 });
    receiver.respondWith(() => 200);
    // The app's one place is taken (a request to it in flight elsewhere) for 500 ms.
    const slot = await acquireInFlightSlot(app.appId, 1, maxConcurrentRequestsLimit, Date.now(), 10_000);
    if (!slot) throw new Error('no place');
    const takenAt = performance.now();
    const released = new Promise<number>((resolve) =>
      setTimeout(() => void releaseInFlightSlot(slot).then(() => resolve(performance.now())), 500),
    );

    expect(await flush(app.hubId)).toEqual({ delivered: 1, failed: 0 });
    expect(performance.now() - takenAt).toBeGreaterThanOrEqual(500);
    await released;
    expect(receiver.deliveries.map((delivery) => delivery.status)).toEqual([503, 200]);
  });

  it("does not track a test account's batch twice, and the deliverer skips a batch a flush took", async () => {
    const { app } = await subject();
    const queue = recordingQueue();
    const batch = batchOf(app.appId, app.hubId, 7_000_001);
    // The same batch queued twice (a stream batch handed out again): one pending item, two messages.
    await queueTracked(queue, [batch], 0);
    await queueTracked(queue, [batch], 0);
    expect(queue.batches.map((sent) => sent.pendingId)).toEqual([pendingIdOf(batch), pendingIdOf(batch)]);
    expect(await pendingOf(app.hubId)).toHaveLength(1);

    expect(await flush(app.hubId)).toEqual({ delivered: 1, failed: 0 });
    const [first, second] = queue.batches;
    if (!first || !second) throw new Error('not queued');
    expect(await deliverBatch(first, queue)).toBe('taken');
    expect(await deliverBatch(second, queue)).toBe('taken');
    expect(receiver.deliveries).toHaveLength(1);
  });

  it('has the deliverer claim a tracked batch: the second message of the same batch is skipped', async () => {
    const { app } = await subject();
    const queue = recordingQueue();
    const batch = batchOf(app.appId, app.hubId, 7_000_002);
    await queueTracked(queue, [batch, batch], 0);
    const [first, second] = queue.batches;
    if (!first || !second) throw new Error('not queued');

    expect(await deliverBatch(first, queue)).toBe('delivered');
    expect(await deliverBatch(second, queue)).toBe('taken');
    expect(receiver.deliveries).toHaveLength(1);
    expect(await pendingOf(app.hubId)).toEqual([]);
  });

  it('does not track a batch of an account that is not a test account (nothing pending, nothing to flush)', async () => {
    const { app, crm, subscribe } = await subject({ isTestAccount: false });
    await subscribe('company.creation');
    receiver.respondWith(() => 503);
    await createCompany(crm, 'Plain Co');
    await webhooks.settle();
    await receiver.waitFor((deliveries) => deliveries.length >= 1);

    // Its retry waits in the queue alone.
    expect(await pendingOf(app.hubId)).toEqual([]);
    expect(await flush(app.hubId)).toEqual({ delivered: 0, failed: 0 });
    expect(receiver.deliveries).toHaveLength(1);
  });
});

describe('listAccountDeliveries', () => {
  it("lists the account's attempts to every app installed in it, newest first, without other accounts', paged", async () => {
    const { app, crm, subscribe } = await subject();
    await subscribe('company.creation');
    // A second app installed in the same account, and the first app installed in another account.
    const second = await provision();
    await installInto(gateway, second, app);
    const manageSecond = (method: string, path: string, body?: unknown) =>
      callTimeline(
        gateway.baseUrl,
        { hapikey: second.developerApiKey },
        method,
        `/webhooks/v3/${second.appId}${path}`,
        body,
      );
    expect((await manageSecond('PUT', '/settings', { targetUrl: receiver.url })).status).toBe(200);
    expect((await manageSecond('POST', '/subscriptions', { eventType: 'company.creation', active: true })).status).toBe(
      201,
    );
    const other = await createAccount(`flush-other-${Date.now()}.example`);
    const user = await createUser(`flush-other-${Date.now()}@example.com`, app.password, [other.hubId]);
    hubs.add(other.hubId);
    const otherToken = await installInto(gateway, app, {
      hubId: other.hubId,
      userId: user.userId,
      userEmail: user.email,
    });

    await createCompany(crm, 'Listed Co');
    expect(await flush(app.hubId)).toEqual({ delivered: 2, failed: 0 });
    await createCompany(crmClient(gateway, otherToken), 'Elsewhere Co');
    await webhooks.settle();
    await receiver.waitFor((deliveries) => deliveries.length === 3);

    const all = await listAccountDeliveries(app.hubId, {});
    expect(all.paging).toBeUndefined();
    expect(all.results.map((attempt) => (attempt as DeliveryAttempt).portalId)).toEqual([app.hubId, app.hubId]);
    expect(new Set(all.results.map((attempt) => (attempt as DeliveryAttempt).appId))).toEqual(
      new Set([app.appId, second.appId]),
    );
    const times = all.results.map((attempt) => (attempt as DeliveryAttempt).attemptedAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect(all.results[0]).toMatchObject({ outcome: 'delivered', statusCode: 200, attemptNumber: 0 });

    const first = await listAccountDeliveries(app.hubId, { limit: '1' });
    expect(first.results).toEqual([all.results[0]]);
    const after = first.paging?.next.after;
    expect(after).toMatch(/^[0-9]{15}#[0-9a-f-]{36}$/);
    const rest = await listAccountDeliveries(app.hubId, { limit: '1', after });
    expect(rest).toEqual({ results: [all.results[1]] });
  });

  it("pages past a stretch of other accounts' attempts with bounded reads", async () => {
    const { app } = await subject();
    const attempt = (portalId: number, atMs: number): DeliveryAttempt => ({
      appId: app.appId,
      portalId,
      attemptedAt: new Date(atMs).toISOString(),
      targetUrl: receiver.url,
      statusCode: 200,
      outcome: 'delivered',
      latencyMs: 1,
      attemptNumber: 0,
      eventIds: [String(atMs)],
    });
    const startMs = Date.now() - 60_000;
    await insertDeliveryAttempt(attempt(app.hubId, startMs), '00000000-0000-4000-8000-000000000001');
    // 300 newer attempts of the same app for another account: more than one call reads of an app's log.
    for (let start = 1; start <= 300; start += 50) {
      await Promise.all(
        Array.from({ length: 50 }, (_, index) =>
          insertDeliveryAttempt(attempt(40_999_999, startMs + start + index), randomUUID()),
        ),
      );
    }

    const page = await listAccountDeliveries(app.hubId, { limit: '10' });
    expect(page.results).toEqual([]);
    const after = page.paging?.next.after;
    expect(after).toBeDefined();
    const next = await listAccountDeliveries(app.hubId, { limit: '10', after });
    expect(next.results).toMatchObject([{ portalId: app.hubId, attemptedAt: new Date(startMs).toISOString() }]);
    expect(next.paging).toBeUndefined();
  });

  it.each([
    [{ limit: '0' }, 'limit'],
    [{ limit: '101' }, 'limit'],
    [{ limit: 'ten' }, 'limit'],
    [{ limit: '1.5' }, 'limit'],
    [{ limit: '' }, 'limit'],
    [{ after: 'not-a-cursor' }, 'after'],
    [{ after: '1#2' }, 'after'],
  ])('refuses %j with a ValidationError naming %s', async (query, field) => {
    const error = await listAccountDeliveries(1, query).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).context).toEqual({ [field]: [Object.values(query)[0]] });
  });
});
