import type { RunningGateway } from '../../../local/local-gateway';
import type { DeliveryBatch, DeliveryQueue } from '../../../shared/webhooks/delivery-queue';
import type { ErrorJson, Installation } from '../../support/harness';
import type { JsonResponse } from '../../support/timeline-client';

/**
 * Webhook targets as deployed: the loopback allowance of the local runtime is off in this file
 * (shared/base/config.ts reads the environment once per module registry, and jest gives each file its
 * own, so it is set before the first import that reaches the config). Registration refuses what
 * the URL alone shows to be non-public; delivery refuses whatever the name resolves to.
 */
process.env.WEBHOOKS_ALLOW_LOOPBACK_HTTP = 'false';

let harness: typeof import('../../support/harness');
let timeline: typeof import('../../support/timeline-client');
let deliver: typeof import('../../../shared/webhooks/deliver-batch');
let poster: typeof import('../../../shared/webhooks/post-to-target');
let webhookDb: typeof import('../../../shared/db/webhooks');
let gateway: RunningGateway;
let app: Installation;

beforeAll(async () => {
  harness = await import('../../support/harness');
  timeline = await import('../../support/timeline-client');
  deliver = await import('../../../shared/webhooks/deliver-batch');
  poster = await import('../../../shared/webhooks/post-to-target');
  webhookDb = await import('../../../shared/db/webhooks');
  const { config } = await import('../../../shared/base/config');
  expect(config.allowsLoopbackHttpWebhooks).toBe(false);
  gateway = await harness.startTestGateway();
});

afterAll(async () => {
  await gateway?.close();
});

beforeEach(async () => {
  app = await harness.provision();
});

const manage = <T = ErrorJson>(method: string, path: string, body?: unknown): Promise<JsonResponse<T>> =>
  timeline.callTimeline<T>(
    gateway.baseUrl,
    { hapikey: app.developerApiKey },
    method,
    `/webhooks/v3/${app.appId}${path}`,
    body,
  );

describe('registration', () => {
  it.each([
    'https://10.0.0.5/hooks',
    'https://169.254.169.254/latest/meta-data/',
    'https://[fd00::1]/',
    'https://[fe80::1]/',
    'https://100.64.0.1/',
    'https://[::ffff:169.254.169.254]/',
    'https://127.0.0.1/hooks',
    'https://[::1]:8443/',
    'https://0/',
    'https://2130706433/',
    'https://0x7f.1/',
    'https://192.168.1.1./',
    'https://localhost/hooks',
    'https://LOCALHOST./',
    'https://api.localhost/',
  ])('refuses %s (400 naming targetUrl), storing nothing', async (targetUrl) => {
    const response = await manage('PUT', '/settings', { targetUrl, throttling: { maxConcurrentRequests: 5 } });

    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      status: 'error',
      category: 'VALIDATION_ERROR',
      correlationId: expect.any(String),
      context: { targetUrl: [targetUrl] },
      message: expect.stringContaining('targetUrl must point at a public host'),
    });
    expect((await manage('GET', '/settings')).status).toBe(404);
  });

  it('refuses http even on a loopback host, which only the local runtime allows', async () => {
    const response = await manage('PUT', '/settings', { targetUrl: 'http://127.0.0.1:9/hooks' });

    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      category: 'VALIDATION_ERROR',
      message: 'targetUrl must use https.',
      context: { targetUrl: ['http://127.0.0.1:9/hooks'] },
    });
  });

  it('keeps the previous target when a refused one is sent', async () => {
    expect((await manage('PUT', '/settings', { targetUrl: 'https://hooks.example.com/a' })).status).toBe(200);
    expect((await manage('PUT', '/settings', { targetUrl: 'https://10.1.2.3/b' })).status).toBe(400);

    expect((await manage<{ targetUrl: string }>('GET', '/settings')).body.targetUrl).toBe(
      'https://hooks.example.com/a',
    );
  });

  it.each([
    'https://hooks.example.com/hubspot',
    'https://8.8.8.8/hooks',
    'https://[2606:4700::1111]/hooks',
    'https://10.0.0.5.nip.io/hooks',
  ])('accepts %s (a hostname is not resolved at registration)', async (targetUrl) => {
    const response = await manage<{ targetUrl: string }>('PUT', '/settings', { targetUrl });

    expect(response.status).toBe(200);
    expect(response.body.targetUrl).toBe(targetUrl);
  });
});

/** A queue that keeps what is sent to it (the seam deliverBatch writes retries and dead letters to). */
function recordingQueue(): DeliveryQueue & {
  sent: { batch: DeliveryBatch; delaySeconds: number }[];
  deadLettered: DeliveryBatch[];
} {
  const sent: { batch: DeliveryBatch; delaySeconds: number }[] = [];
  const deadLettered: DeliveryBatch[] = [];
  return {
    sent,
    deadLettered,
    send: async (batches, delaySeconds) => {
      sent.push(...batches.map((batch) => ({ batch, delaySeconds })));
    },
    deadLetter: async (batch) => {
      deadLettered.push(batch);
    },
  };
}

function batchOf(attemptNumber: number): DeliveryBatch {
  return {
    appId: app.appId,
    portalId: app.hubId,
    attemptNumber,
    events: [
      {
        eventId: 700 + attemptNumber,
        subscriptionId: 1,
        portalId: app.hubId,
        appId: app.appId,
        occurredAt: Date.now(),
        subscriptionType: 'company.creation',
        attemptNumber,
        objectId: 42,
        changeSource: 'INTEGRATION',
        changeFlag: 'CREATED',
      },
    ],
  };
}

interface LoggedAttempt {
  attemptNumber: number;
  outcome: string;
  statusCode?: number;
  error?: string;
  targetUrl: string;
}

describe('delivery', () => {
  it('refuses a target whose name resolves to a private address: a failed attempt with the reason, retried', async () => {
    expect((await manage('PUT', '/settings', { targetUrl: 'https://hooks.example.com/hubspot' })).status).toBe(200);
    const asked: string[] = [];
    const post = poster.createTargetPoster({
      allowsLoopback: false,
      resolve: async (hostname) => {
        asked.push(hostname);
        return [{ address: '10.0.0.5', family: 4 }];
      },
    });
    const queue = recordingQueue();

    const outcome = await deliver.deliverBatch(batchOf(0), queue, Date.now(), post);
    const log = await manage<{ results: LoggedAttempt[] }>('GET', '/deliveries');

    expect(outcome).toBe('retrying');
    expect(asked).toEqual(['hooks.example.com']);
    expect(log.body.results).toEqual([
      expect.objectContaining({
        attemptNumber: 0,
        outcome: 'failed',
        error: 'target resolves to a non-public address 10.0.0.5',
        targetUrl: 'https://hooks.example.com/hubspot',
      }),
    ]);
    expect(log.body.results[0]?.statusCode).toBeUndefined();
    expect(queue.sent.map(({ batch }) => [batch.attemptNumber, batch.events.map((event) => event.eventId)])).toEqual([
      [1, [700]],
    ]);
  });

  it('dead-letters the last refused attempt like any other failure', async () => {
    expect((await manage('PUT', '/settings', { targetUrl: 'https://hooks.example.com/hubspot' })).status).toBe(200);
    const post = poster.createTargetPoster({
      allowsLoopback: false,
      resolve: async () => [{ address: 'fd12::7', family: 6 }],
    });
    const queue = recordingQueue();

    const outcome = await deliver.deliverBatch(batchOf(9), queue, Date.now(), post);
    const log = await manage<{ results: LoggedAttempt[] }>('GET', '/deliveries');

    expect(outcome).toBe('dead-lettered');
    expect(queue.deadLettered.map((batch) => batch.attemptNumber)).toEqual([9]);
    expect(log.body.results.map((row) => [row.attemptNumber, row.outcome, row.error])).toEqual([
      [9, 'dead-lettered', 'target resolves to a non-public address fd12::7'],
    ]);
  });

  it("refuses an IP-literal target stored before registration checked it, with the process's own poster", async () => {
    // Written straight to the table, as a target registered before this check existed would be.
    const now = new Date().toISOString();
    await webhookDb.putWebhookSettings({
      appId: app.appId,
      targetUrl: 'https://169.254.169.254/latest/meta-data/',
      maxConcurrentRequests: 5,
      createdAt: now,
      updatedAt: now,
    });
    const queue = recordingQueue();

    const outcome = await deliver.deliverBatch(batchOf(0), queue);
    const log = await manage<{ results: LoggedAttempt[] }>('GET', '/deliveries');

    expect(outcome).toBe('retrying');
    expect(log.body.results.map((row) => [row.outcome, row.error])).toEqual([
      ['failed', 'target is a non-public address 169.254.169.254'],
    ]);
  });
});
