import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RunningGateway } from '../../../local/local-gateway';
import { startLocalWebhooks, type LocalWebhooks } from '../../../local/local-webhooks';
import { install, startTestGateway, type InstalledTokens } from '../../support/harness';
import { crmClient, type CompanyJson, type CrmClient } from '../../support/crm-client';
import { callTimeline } from '../../support/timeline-client';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver';

/**
 * Nothing lost: 1,000 company writes from 16 clients while the receiver fails 20 % of requests at
 * random. Every acknowledged change must reach the receiver in a 2xx-answered request (counted by
 * eventId); writes that were refused (a taken domain: the transaction is canceled) send nothing.
 * Then the same with the webhook process killed (SIGKILL) and restarted on its state folder mid-burst.
 */
const totalWrites = 1000;
const clients = 16;
let gateway: RunningGateway;

beforeAll(async () => {
  gateway = await startTestGateway();
});

afterAll(async () => {
  await gateway.close();
});

interface Expected {
  /** `${subscriptionType}|${objectId}|${propertyValue ?? ''}` of every acknowledged change. */
  keys: Set<string>;
  refusedNames: Set<string>;
}

async function prepare(receiver: WebhookReceiver): Promise<{ app: InstalledTokens; crm: CrmClient }> {
  const app = await install(gateway);
  const manage = (method: string, pathName: string, body?: unknown) =>
    callTimeline(
      gateway.baseUrl,
      { hapikey: app.developerApiKey },
      method,
      `/webhooks/v3/${app.appId}${pathName}`,
      body,
    );
  expect(
    (await manage('PUT', '/settings', { targetUrl: receiver.url, throttling: { maxConcurrentRequests: 10 } })).status,
  ).toBe(200);
  expect((await manage('POST', '/subscriptions', { eventType: 'company.creation', active: true })).status).toBe(201);
  expect(
    (
      await manage('POST', '/subscriptions', {
        eventType: 'company.propertyChange',
        propertyName: 'name',
        active: true,
      })
    ).status,
  ).toBe(201);
  const crm = crmClient(gateway, app.accessToken);
  expect(
    (await crm.post('/crm/v3/objects/companies', { properties: { name: 'Holder', domain: 'taken.example' } })).status,
  ).toBe(201);
  return { app, crm };
}

/** 16 clients share 1,000 writes: creates, renames of their own companies, and creates that must be refused. */
async function burst(crm: CrmClient, tag: string, onHalfway?: () => Promise<void>): Promise<Expected> {
  const expected: Expected = { keys: new Set(), refusedNames: new Set() };
  let next = 0;
  let halfway: Promise<void> | undefined;
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      const mine: string[] = [];
      for (let index = next++; index < totalWrites; index = next++) {
        if (index === totalWrites / 2 && onHalfway) halfway = onHalfway();
        const name = `${tag}-${client}-${index}`;
        if (index % 10 === 0) {
          const refused = await crm.post('/crm/v3/objects/companies', {
            properties: { name, domain: 'taken.example' },
          });
          expect(refused.status).toBe(409);
          expected.refusedNames.add(name);
        } else if (index % 3 === 1 && mine.length > 0) {
          const id = mine[index % mine.length] ?? '';
          const renamed = await crm.patch(`/crm/v3/objects/companies/${id}`, { properties: { name } });
          if (renamed.status === 200) expected.keys.add(`company.propertyChange|${id}|${name}`);
        } else {
          const created = await crm.post<CompanyJson>('/crm/v3/objects/companies', { properties: { name } });
          if (created.status === 201) {
            mine.push(created.body.id);
            expected.keys.add(`company.creation|${created.body.id}|`);
            expected.keys.add(`company.propertyChange|${created.body.id}|${name}`);
          }
        }
      }
    }),
  );
  await halfway;
  return expected;
}

function delivered(receiver: WebhookReceiver): { keys: Set<string>; eventIds: Set<number>; names: Set<string> } {
  const ok = receiver.deliveries.filter((delivery) => delivery.status < 300).flatMap((delivery) => delivery.events);
  return {
    keys: new Set(
      ok.map((event) => `${event.subscriptionType}|${String(event.objectId)}|${event.propertyValue ?? ''}`),
    ),
    eventIds: new Set(ok.map((event) => event.eventId)),
    names: new Set(receiver.events().flatMap((event) => (event.propertyValue ? [event.propertyValue] : []))),
  };
}

async function expectNothingLost(receiver: WebhookReceiver, expected: Expected, startedAtMs: number): Promise<void> {
  const writtenAtMs = Date.now();
  const deadline = Date.now() + 60_000;
  let missing = [...expected.keys];
  while (missing.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const { keys } = delivered(receiver);
    missing = missing.filter((key) => !keys.has(key));
  }
  const seen = delivered(receiver);
  expect({ missing: missing.length, sample: missing.slice(0, 5) }).toEqual({ missing: 0, sample: [] });
  // Every change has its own event id: as many distinct ids arrived as changes were acknowledged.
  expect(seen.eventIds.size).toBe(expected.keys.size);
  expect([...expected.refusedNames].filter((name) => seen.names.has(name))).toEqual([]);
  console.log(
    `webhook burst: writes took ${writtenAtMs - startedAtMs} ms, the last delivery came ${Date.now() - writtenAtMs} ms later;` +
      ` ${expected.keys.size} acknowledged changes, ${receiver.deliveries.length} requests` +
      ` (${receiver.deliveries.filter((delivery) => delivery.status >= 300).length} answered 500), ${seen.eventIds.size} distinct event ids delivered`,
  );
}

it('delivers every acknowledged change of a 1,000-write burst at least once while the receiver fails 20 % of requests', async () => {
  const receiver = await startWebhookReceiver();
  receiver.respondWith(() => (Math.random() < 0.2 ? 500 : 200));
  const { app, crm } = await prepare(receiver);
  const webhooks: LocalWebhooks = await startLocalWebhooks({
    endpoint: process.env.DYNAMODB_ENDPOINT ?? '',
    tableName: process.env.TABLE_NAME ?? '',
    delayScale: 0.001,
    pollIntervalMs: 50,
    acceptsHub: (hubId) => hubId === app.hubId,
    startAtTip: true,
  });
  try {
    const startedAtMs = Date.now();
    const expected = await burst(crm, 'burst');
    await expectNothingLost(receiver, expected, startedAtMs);
  } finally {
    await webhooks.stop();
    await receiver.close();
  }
}, 180_000);

function startRuntimeProcess(stateDir: string, hubId: number): Promise<ChildProcess> {
  const root = path.resolve(__dirname, '../../..');
  // Node itself with tsx's loader (not tsx's CLI, which runs the script in a child of its own that a kill would miss).
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(root, 'test/support/webhook-runtime-process.ts'),
      JSON.stringify({ stateDir, delayScale: 0.001, hubIds: [hubId] }),
    ],
    { cwd: root, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('webhook runtime ready')) resolve(child);
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('exit', (code) => reject(new Error(`the webhook runtime exited with ${code}: ${output}`)));
  });
}

function kill(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

it('loses nothing when the webhook process is killed mid-burst and started again on its state folder', async () => {
  const receiver = await startWebhookReceiver();
  receiver.respondWith(() => (Math.random() < 0.2 ? 500 : 200));
  const { app, crm } = await prepare(receiver);
  const stateDir = mkdtempSync(path.join(tmpdir(), 'webhooks-restart-'));
  let runtime = await startRuntimeProcess(stateDir, app.hubId);
  try {
    const startedAtMs = Date.now();
    let killedPid: number | undefined;
    const expected = await burst(crm, 'restart', async () => {
      killedPid = runtime.pid;
      await kill(runtime);
      runtime = await startRuntimeProcess(stateDir, app.hubId);
    });
    // The webhook process itself died (no child of it kept delivering): signal 0 finds no such process.
    expect(() => process.kill(killedPid ?? 0, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }) as Error);
    await expectNothingLost(receiver, expected, startedAtMs);
  } finally {
    await kill(runtime);
    await receiver.close();
  }
}, 180_000);
