import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { startLocalWebhooks } from '../local/local-webhooks';
import { companyProperties, installApp, installInNewAccount, uniqueName } from './bench-data';
import { jsonRequest, type ApiClient } from './http-client';
import { ratio, summarize, type LatencySummary } from './stats';
import { roundSummary } from './api-latency';

export interface WebhooksReport {
  writes: number;
  connections: number;
  /** Events that reached the receiver (creation + one name propertyChange per company). */
  eventsDelivered: number;
  /** Events over the seconds from the first write to the last event received. */
  eventsPerSecond: number;
  /** From the moment the create was acknowledged (committed) to the receiver getting its creation event. */
  commitToReceiver: LatencySummary;
  /** POST /crm/v3/objects/companies, sequential, without and with the webhook runtime polling and delivering. */
  createLatencyOff: LatencySummary;
  createLatencyOn: LatencySummary;
  /** p50 with webhooks on over p50 without. */
  warmP50Ratio: number;
  /**
   * The same burst spread over several accounts of the one app (round robin): their batches share
   * the app's maxConcurrentRequests (10) and its one in-flight item in the table.
   */
  acrossAccounts: BurstSummary & { accounts: number };
}

export interface BurstSummary {
  eventsDelivered: number;
  eventsPerSecond: number;
  commitToReceiver: LatencySummary;
}

async function createLatency(api: ApiClient, token: string, iterations: number): Promise<LatencySummary> {
  const samples: number[] = [];
  for (let index = 0; index < iterations; index += 1) {
    const started = performance.now();
    await api.expectOk(
      jsonRequest('POST', '/crm/v3/objects/companies', token, { properties: companyProperties(uniqueName('warm')) }),
    );
    samples.push(performance.now() - started);
  }
  return roundSummary(summarize(samples));
}

/**
 * End to end in the local runtime: the gateway, DynamoDB Local's stream, the same event and
 * delivery code as deployed, the in-process queue, a receiver on 127.0.0.1: a burst in one
 * account, then the same burst over `accounts` accounts of the app. Also the API's warm create
 * latency with the webhook runtime off and on (delivery must not slow the API).
 */
export async function measureWebhooks(options: {
  api: ApiClient;
  endpoint: string;
  tableName: string;
  writes: number;
  connections: number;
  accounts: number;
  warmIterations: number;
  log: (line: string) => void;
}): Promise<WebhooksReport> {
  const { api } = options;
  const install = await installApp(api);
  const receivedAt = new Map<string, number>();
  let events = 0;
  let lastEventAt = 0;
  const receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const now = performance.now();
      for (const event of JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        subscriptionType: string;
        objectId: number;
      }[]) {
        events += 1;
        lastEventAt = now;
        if (event.subscriptionType === 'company.creation') receivedAt.set(String(event.objectId), now);
      }
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hapikey = `hapikey=${encodeURIComponent(install.developerApiKey)}`;
  const base = `/webhooks/v3/${install.appId}`;
  await api.expectOk(
    jsonRequest('PUT', `${base}/settings?${hapikey}`, undefined, {
      targetUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`,
    }),
  );
  await api.expectOk(
    jsonRequest('POST', `${base}/subscriptions?${hapikey}`, undefined, { eventType: 'company.creation', active: true }),
  );
  await api.expectOk(
    jsonRequest('POST', `${base}/subscriptions?${hapikey}`, undefined, {
      eventType: 'company.propertyChange',
      propertyName: 'name',
      active: true,
    }),
  );

  const createLatencyOff = await createLatency(api, install.accessToken, options.warmIterations);
  options.log(`webhooks: create p50 ${createLatencyOff.p50Ms} ms with webhooks off`);
  // The local runtime's own poll interval (the deployed batching window), as npm start runs it.
  const webhooks = await startLocalWebhooks({ endpoint: options.endpoint, tableName: options.tableName });
  try {
    const createLatencyOn = await createLatency(api, install.accessToken, options.warmIterations);
    options.log(`webhooks: create p50 ${createLatencyOn.p50Ms} ms with webhooks on`);
    /** `writes` creates from `connections` clients, round robin over the tokens' accounts; every creation event must arrive. */
    const burst = async (tokens: readonly string[]): Promise<BurstSummary> => {
      await webhooks.settle();
      events = 0;
      receivedAt.clear();
      const ackedAt = new Map<string, number>();
      let next = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: options.connections }, async () => {
          for (let index = next++; index < options.writes; index = next++) {
            const token = tokens[index % tokens.length] ?? install.accessToken;
            const response = await api.expectOk(
              jsonRequest('POST', '/crm/v3/objects/companies', token, {
                properties: companyProperties(uniqueName('hook')),
              }),
            );
            ackedAt.set((JSON.parse(response.body) as { id: string }).id, performance.now());
          }
        }),
      );
      const deadline = Date.now() + 60_000;
      while ([...ackedAt.keys()].some((id) => !receivedAt.has(id)) && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
      const missing = [...ackedAt.keys()].filter((id) => !receivedAt.has(id)).length;
      if (missing > 0) throw new Error(`webhooks: ${missing} creation events did not arrive within 60 s`);
      const lags = [...ackedAt].map(([id, at]) => (receivedAt.get(id) ?? at) - at);
      return {
        eventsDelivered: events,
        eventsPerSecond: Math.round(events / ((lastEventAt - started) / 1000)),
        commitToReceiver: roundSummary(summarize(lags)),
      };
    };
    const single = await burst([install.accessToken]);
    options.log(
      `webhooks: ${single.eventsDelivered} events at ${single.eventsPerSecond}/s, commit to receiver p50 ${single.commitToReceiver.p50Ms} ms p99 ${single.commitToReceiver.p99Ms} ms`,
    );
    const others = [];
    for (let index = 1; index < options.accounts; index += 1) others.push(await installInNewAccount(api, install));
    const spread = await burst([install.accessToken, ...others.map((other) => other.accessToken)]);
    options.log(
      `webhooks: ${options.accounts} accounts: ${spread.eventsDelivered} events at ${spread.eventsPerSecond}/s, commit to receiver p50 ${spread.commitToReceiver.p50Ms} ms p99 ${spread.commitToReceiver.p99Ms} ms`,
    );
    return {
      writes: options.writes,
      connections: options.connections,
      ...single,
      createLatencyOff,
      createLatencyOn,
      warmP50Ratio: ratio(createLatencyOn.p50Ms, createLatencyOff.p50Ms),
      acrossAccounts: { accounts: options.accounts, ...spread },
    };
  } finally {
    await webhooks.stop();
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  }
}
