import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import {
  ensureTable,
  findFreePort,
  localClient,
  startDynamoDbLocal,
  type RunningDynamoDb,
} from '../../local/dynamodb-local';
import type { RunningGateway } from '../../local/local-gateway';
import type { Installation } from '../support/harness';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';
import type * as HarnessModule from '../support/harness';
import type * as ClientModule from '../../shared/db/client';
import { uniqueValueKey, grantKey, hubPartition, installKey, recordKey } from '../../shared/db/keys';
import { companyKeys } from '../../shared/companies/company-keys';

/**
 * Cuts the service off from this file's own DynamoDB Local in the middle of a burst of mixed writes
 * through the in-process gateway, then lets it through again. Nothing here mocks DynamoDB: the
 * outage is every connection refused and every open one dropped by a TCP proxy between the service
 * and DynamoDB Local (test/support/tcp-proxy.ts), the throttle a real SDK error raised inside the
 * real client's middleware stack. Stopping the DynamoDB Local process instead makes it lose writes
 * it had acknowledged (in a probe, 2 of about 300 transactions when killed), which tests
 * DynamoDB Local's durability, not this service.
 */
jest.setTimeout(180_000);

const tableName = 'hubspot-platform-faults';
/** The deployed Lambda timeout (lib/bundled-function.ts): an answer later than this never reaches the client. */
const requestDeadlineMs = 10_000;
const workerCount = 6;
const requestsBeforeStop = 36;
const requestsDuringOutage = 48;
/** Long enough that workers keep sending into a database that stays down, not a blip. */
const minimumOutageMs = 1500;

type Operation = 'createRecord' | 'updateRecord' | 'exchangeCode' | 'refreshToken';

interface Outcome {
  operation: Operation;
  startedAt: number;
  endedAt: number;
  status: number;
  body: Record<string, unknown>;
  companyId?: string;
  /** The name an update tried to set. */
  name?: string;
}

/**
 * Waits until the kernel has stopped every thread of the process: kill() only queues SIGSTOP, and a
 * process busy on another core can answer a request sent in between.
 */
async function untilStopped(pid: number | undefined): Promise<void> {
  if (pid === undefined) throw new Error('DynamoDB Local has no pid');
  const taskDir = `/proc/${pid}/task`;
  for (let attempt = 0; attempt < 500; attempt += 1) {
    const states = readdirSync(taskDir).map((task) => {
      const stat = readFileSync(path.join(taskDir, task, 'stat'), 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    });
    if (states.every((state) => state === 'T' || state === 't')) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`DynamoDB Local (pid ${pid}) did not stop`);
}

let dynamo: RunningDynamoDb;
let dataDir: string;
/** The proxy's port: where the service reaches DynamoDB Local. */
let port: number;
let proxy: TcpProxy;
let gateway: RunningGateway;
let harness: typeof HarnessModule;
let client: typeof ClientModule;
let installation: Installation;
let accessToken: string;
let refreshToken: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'hubspot-slice-faults-'));
  dynamo = await startDynamoDbLocal({ port: await findFreePort(), dataDir });
  await ensureTable(dynamo.endpoint, tableName);
  proxy = await startTcpProxy(dynamo.port);
  port = proxy.port;
  // shared/base/config.ts reads the environment once per module registry, and jest gives this file its own:
  // set it before the first import of anything that reaches the config.
  process.env.DYNAMODB_ENDPOINT = `http://127.0.0.1:${port}`;
  process.env.TABLE_NAME = tableName;
  // Every 503 of the outage is logged at ERROR; hundreds of them would bury the suite's output.
  process.env.LOG_LEVEL = 'SILENT';
  harness = await import('../support/harness');
  client = await import('../../shared/db/client');
  gateway = await harness.startTestGateway();
  const installed = await harness.install(gateway);
  installation = installed;
  accessToken = installed.accessToken;
  refreshToken = installed.refreshToken;
});

afterAll(async () => {
  await gateway?.close();
  await proxy?.close();
  await dynamo?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function call(
  method: string,
  pathName: string,
  options: { body?: unknown; form?: Record<string, string>; token?: string } = {},
): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  } else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  // The deadline turns a hung request into a failed test instead of a hung suite.
  const response = await fetch(`${gateway.baseUrl}${pathName}`, {
    method,
    headers,
    body,
    signal: AbortSignal.timeout(requestDeadlineMs),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>),
    headers: response.headers,
  };
}

describe('the test DynamoDB of this file', () => {
  it('is the one the handlers use, not the suite-wide instance', async () => {
    const endpoint = await client.db.config.endpoint?.();

    expect({ table: client.tableName, port: endpoint?.port }).toEqual({ table: tableName, port });
  });
});

/**
 * Lets the next write through to DynamoDB, then throws a timeout in place of its answer: the write
 * happened, the SDK's retry (outside this middleware) sends it again.
 */
function loseTheAnswerOfNext(commandName: string): { wasLost: () => boolean; remove: () => void } {
  let isArmed = true;
  const name = `faultInjectionLoseAnswer${commandName}`;
  client.db.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      if (isArmed && context.commandName === commandName) {
        isArmed = false;
        throw Object.assign(new Error('injected: the answer was lost'), { name: 'TimeoutError', code: 'ETIMEDOUT' });
      }
      return result;
    },
    { step: 'deserialize', name },
  );
  return { wasLost: () => !isArmed, remove: () => client.db.middlewareStack.remove(name) };
}

describe('a write whose answer is lost and that the SDK retries', () => {
  it('answers 204 to the timeline event create, not a duplicate-id 400', async () => {
    const timeline = `/integrations/v1/${installation.appId}/timeline`;
    const type = await call(
      'POST',
      `${timeline}/event-types?hapikey=${encodeURIComponent(installation.developerApiKey)}`,
      { body: { name: 'Lost answers' } },
    );
    const fault = loseTheAnswerOfNext('PutItemCommand');
    let response: Awaited<ReturnType<typeof call>>;
    try {
      response = await call('POST', `${timeline}/event`, {
        token: accessToken,
        body: { id: 'lost-answer', eventTypeId: type.body.id, objectId: 1 },
      });
    } finally {
      fault.remove();
    }

    expect({ status: response.status, body: response.body, wasLost: fault.wasLost() }).toEqual({
      status: 204,
      body: {},
      wasLost: true,
    });
  });

  it('answers 201 to the company create, not a 409 against itself', async () => {
    const fault = loseTheAnswerOfNext('TransactWriteItemsCommand');
    let response: Awaited<ReturnType<typeof call>>;
    try {
      response = await call('POST', '/crm/v3/objects/companies', {
        token: accessToken,
        body: { properties: { name: 'Lost answer', domain: `lost-${process.pid}.example` } },
      });
    } finally {
      fault.remove();
    }

    expect({ status: response.status, wasLost: fault.wasLost() }).toEqual({ status: 201, wasLost: true });
  });

  it('answers 201 to the custom property create, not a 409 against itself', async () => {
    // The definition is written with the account's count item in one transaction: the SDK's retry carries its ClientRequestToken.
    const fault = loseTheAnswerOfNext('TransactWriteItemsCommand');
    let response: Awaited<ReturnType<typeof call>>;
    try {
      response = await call('POST', '/crm/v3/properties/companies', {
        token: accessToken,
        body: {
          name: `lost_answer_${process.pid}`,
          label: `Lost answer ${process.pid}`,
          type: 'string',
          fieldType: 'text',
          groupName: 'companyinformation',
        },
      });
    } finally {
      fault.remove();
    }

    expect({ status: response.status, wasLost: fault.wasLost() }).toEqual({ status: 201, wasLost: true });
    expect(response.body).not.toHaveProperty('writeId');
  });

  it('still issues the authorization code of the consent', async () => {
    const fault = loseTheAnswerOfNext('PutItemCommand');
    let code: string;
    try {
      code = await harness.authorizationCodeFor(installation);
    } finally {
      fault.remove();
    }
    const exchange = await call('POST', '/oauth/v1/token', {
      form: {
        grant_type: 'authorization_code',
        client_id: installation.clientId,
        client_secret: installation.clientSecret,
        redirect_uri: installation.redirectUri,
        code,
      },
    });

    expect({ status: exchange.status, wasLost: fault.wasLost() }).toEqual({ status: 200, wasLost: true });
  });
});

describe('a DynamoDB outage in the middle of a burst of writes', () => {
  const outcomes: Outcome[] = [];
  let outageStartedAt = Number.POSITIVE_INFINITY;
  let outageEndedAt = Number.POSITIVE_INFINITY;
  const codes: string[] = [];

  beforeAll(async () => {
    for (let index = 0; index < 40; index += 1) codes.push(await harness.authorizationCodeFor(installation));
    const startedBefore = () => outcomes.filter((outcome) => outcome.startedAt < outageStartedAt).length;
    const answeredInOutage = () => outcomes.filter((outcome) => outcome.startedAt >= outageStartedAt).length;
    let isRunning = true;

    async function perform(
      operation: Operation,
      worker: { companies: string[]; sequence: number; id: number },
    ): Promise<Outcome> {
      const startedAt = Date.now();
      const finish = (
        result: { status: number; body: Record<string, unknown> },
        extra: Partial<Outcome> = {},
      ): Outcome => ({ operation, startedAt, endedAt: Date.now(), status: result.status, body: result.body, ...extra });
      if (operation === 'createRecord') {
        const domain = `w${worker.id}-${worker.sequence}-${process.pid}.faults.example`;
        const parent = worker.companies.at(-1);
        const result = await call('POST', '/crm/v3/objects/companies', {
          token: accessToken,
          body: {
            properties: { name: `company ${worker.id}-${worker.sequence}`, domain },
            // A child of the worker's previous company: the create also writes the parent (one transaction).
            associations: parent
              ? [{ to: { id: parent }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 14 }] }]
              : [],
          },
        });
        const companyId = result.status === 201 ? String(result.body.id) : undefined;
        if (companyId) {
          worker.companies.push(companyId);
        }
        return finish(result, { companyId });
      }
      if (operation === 'updateRecord') {
        const companyId = worker.companies[worker.sequence % worker.companies.length];
        const name = `renamed ${worker.id}-${worker.sequence}`;
        if (!companyId) return perform('createRecord', worker);
        const result = await call('PATCH', `/crm/v3/objects/companies/${companyId}`, {
          token: accessToken,
          body: { properties: { name } },
        });
        return finish(result, { companyId, name });
      }
      if (operation === 'exchangeCode') {
        const code = codes.pop();
        if (!code) return perform('refreshToken', worker);
        const result = await call('POST', '/oauth/v1/token', {
          form: {
            grant_type: 'authorization_code',
            client_id: installation.clientId,
            client_secret: installation.clientSecret,
            redirect_uri: installation.redirectUri,
            code,
          },
        });
        return finish(result);
      }
      const result = await call('POST', '/oauth/v1/token', {
        form: {
          grant_type: 'refresh_token',
          client_id: installation.clientId,
          client_secret: installation.clientSecret,
          refresh_token: refreshToken,
        },
      });
      return finish(result);
    }

    const operations: Operation[] = [
      'createRecord',
      'updateRecord',
      'exchangeCode',
      'createRecord',
      'refreshToken',
      'updateRecord',
    ];
    const workers = Array.from({ length: workerCount }, async (_, id) => {
      const worker = { companies: [] as string[], sequence: 0, id };
      // Bounded in count as well as by the orchestration below.
      while (isRunning && worker.sequence < 400) {
        const operation = operations[(worker.sequence + id) % operations.length] ?? 'createRecord';
        worker.sequence += 1;
        outcomes.push(await perform(operation, worker));
      }
    });

    const waitFor = async (condition: () => boolean, limitMs: number) => {
      const deadline = Date.now() + limitMs;
      while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    };
    await waitFor(() => startedBefore() >= requestsBeforeStop, 60_000);
    await proxy.cut();
    outageStartedAt = Date.now();
    await waitFor(
      () => answeredInOutage() >= requestsDuringOutage && Date.now() - outageStartedAt >= minimumOutageMs,
      60_000,
    );
    isRunning = false;
    await Promise.all(workers);
    outageEndedAt = Date.now();
    await proxy.restore();
    const written = outcomes.filter((outcome) => outcome.status >= 200 && outcome.status < 300).length;
    const inOutage = outcomes.filter((outcome) => outcome.startedAt >= outageStartedAt);
    const maxOutageLatency = Math.max(...inOutage.map((outcome) => outcome.endedAt - outcome.startedAt));
    const statuses = new Map<number, number>();
    for (const outcome of inOutage) statuses.set(outcome.status, (statuses.get(outcome.status) ?? 0) + 1);
    console.log(
      `fault injection: ${outcomes.length} requests, ${written} answered 2xx; ` +
        `${inOutage.length} sent during the outage (statuses ${JSON.stringify(Object.fromEntries(statuses))}, max ${maxOutageLatency} ms); ` +
        `outage lasted ${outageEndedAt - outageStartedAt} ms`,
    );
  });

  it('answers every request sent during the outage with the 503 error object', () => {
    const inOutage = outcomes.filter(
      (outcome) => outcome.startedAt >= outageStartedAt && outcome.endedAt <= outageEndedAt,
    );

    expect(inOutage.length).toBeGreaterThanOrEqual(requestsDuringOutage);
    for (const outcome of inOutage) {
      expect({ operation: outcome.operation, status: outcome.status, body: outcome.body }).toEqual({
        operation: outcome.operation,
        status: 503,
        body: expect.objectContaining({
          status: 'error',
          category: 'SERVICE_UNAVAILABLE',
          correlationId: expect.any(String),
          message: expect.any(String),
        }),
      });
    }
  });

  it('answers requests sent before or while the database stops with a success or a 503, never another error', () => {
    const beforeTheOutage = outcomes.filter((outcome) => outcome.startedAt < outageStartedAt);

    const unexpected = beforeTheOutage.filter(
      (outcome) => !(outcome.status === 503 || (outcome.status >= 200 && outcome.status < 300)),
    );
    expect(unexpected).toEqual([]);
  });

  it('keeps every company create that was answered 2xx, with its last answered update or a later attempted one', async () => {
    const creates = outcomes.filter((outcome) => outcome.operation === 'createRecord' && outcome.status === 201);
    const mismatches: string[] = [];

    for (const created of creates) {
      const updates = outcomes.filter(
        (outcome) => outcome.operation === 'updateRecord' && outcome.companyId === created.companyId,
      );
      const lastAnswered = updates.filter((update) => update.status === 200).at(-1);
      const acceptable = new Set([
        lastAnswered?.name ?? String((created.body.properties as Record<string, unknown>).name),
        ...updates
          .filter((update) => update.status !== 200 && update.startedAt > (lastAnswered?.startedAt ?? 0))
          .map((update) => update.name),
      ]);
      const read = await call('GET', `/crm/v3/objects/companies/${created.companyId}`, { token: accessToken });
      const name = String((read.body.properties as Record<string, unknown> | undefined)?.name);
      if (read.status !== 200 || !acceptable.has(name)) {
        // The history, so that a failure says which answered write was lost (times relative to the outage's start).
        const history = updates
          .map(
            (update) =>
              `${update.name} ${update.status} ${update.startedAt - outageStartedAt}..${update.endedAt - outageStartedAt} ms`,
          )
          .join(', ');
        mismatches.push(`${created.companyId}: ${read.status} ${name}; updates: ${history}`);
      }
    }

    expect(creates.length).toBeGreaterThan(0);
    expect(mismatches).toEqual([]);
  });

  it('keeps every refresh token of a code exchange that was answered 2xx', async () => {
    const exchanges = outcomes.filter((outcome) => outcome.operation === 'exchangeCode' && outcome.status === 200);
    const missing: string[] = [];

    for (const exchange of exchanges) {
      const read = await call('GET', `/oauth/v1/refresh-tokens/${String(exchange.body.refresh_token)}`);
      if (read.status !== 200) missing.push(`${read.status} ${JSON.stringify(read.body)}`);
    }

    expect(exchanges.length).toBeGreaterThan(0);
    expect(missing).toEqual([]);
  });

  it('serves writes again once DynamoDB is reachable', async () => {
    const response = await call('POST', '/crm/v3/objects/companies', {
      token: accessToken,
      body: { properties: { name: 'after the outage' } },
    });

    expect(response.status).toBe(201);
  });

  it('leaves no partial state: every uniqueness item, link, refresh token and grant has its counterpart', async () => {
    const scanner = DynamoDBDocumentClient.from(localClient(dynamo.endpoint));
    const items: Record<string, unknown>[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await scanner.send(
        new ScanCommand({ TableName: tableName, ExclusiveStartKey: startKey, ConsistentRead: true }),
      );
      items.push(...(page.Items ?? []));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    scanner.destroy();
    const byKey = new Map(items.map((item) => [`${String(item.pk)}|${String(item.sk)}`, item]));
    const find = (key: { pk: string; sk: string }) => byKey.get(`${key.pk}|${key.sk}`);
    const hub = installation.hubId;
    const violations: string[] = [];

    for (const item of items) {
      const sk = String(item.sk);
      if (item.pk === hubPartition(hub) && sk.startsWith('COMPANY_UNIQUE#')) {
        const owner = find(recordKey(companyKeys, hub, String(item.companyId)));
        const ownerValues = (owner?.uniqueValues ?? []) as { propertyName: string; value: string }[];
        if (!ownerValues.some((value) => value.propertyName === item.propertyName && value.value === item.value))
          violations.push(`uniqueness item without its company: ${sk}`);
      }
      if (item.pk === hubPartition(hub) && sk.startsWith(recordKey(companyKeys, hub, '').sk)) {
        const record = item as {
          id: string;
          properties: Record<string, string>;
          history: Record<string, { value: string }[]>;
          associations: Record<string, string>;
          uniqueValues: { propertyName: string; value: string }[];
        };
        for (const [name, value] of Object.entries(record.properties)) {
          if (record.history[name]?.[0]?.value !== value)
            violations.push(`company ${record.id}: ${name} has no history of its value`);
        }
        for (const name of Object.keys(record.history)) {
          if (!(name in record.properties) && record.history[name]?.[0]?.value !== '')
            violations.push(`company ${record.id}: history of ${name} without its value`);
        }
        for (const unique of record.uniqueValues) {
          const claim = find(uniqueValueKey(companyKeys, hub, unique.propertyName, unique.value));
          if (claim?.companyId !== record.id)
            violations.push(`company ${record.id}: ${unique.value} without its uniqueness item`);
        }
        for (const link of Object.keys(record.associations)) {
          const [objectType, otherId, typeId] = link.split('/');
          if (objectType !== '0-2') continue;
          const other = find(recordKey(companyKeys, hub, otherId ?? ''));
          const inverse = typeId === '14' ? '13' : typeId === '13' ? '14' : typeId;
          if (!other || !(`0-2/${record.id}/${inverse}` in ((other.associations ?? {}) as Record<string, string>)))
            violations.push(`company ${record.id}: link to ${otherId} without its inverse`);
        }
      }
      if (String(item.pk).startsWith('REFRESH#')) {
        const grant = find(grantKey(String(item.grantId)));
        if (!grant) violations.push(`refresh token without its grant ${String(item.grantId)}`);
        if (!find(installKey(Number(item.hubId), Number(item.appId))))
          violations.push(`refresh token without its install ${String(item.grantId)}`);
      }
    }

    expect(items.length).toBeGreaterThan(0);
    expect(violations).toEqual([]);
  });
});

describe('DynamoDB throttling', () => {
  it('answers 429 RATE_LIMITS with the retryable policy when DynamoDB keeps throttling a request', async () => {
    const { ProvisionedThroughputExceededException } = await import('@aws-sdk/client-dynamodb');
    const created = await call('POST', '/crm/v3/objects/companies', {
      token: accessToken,
      body: { properties: { name: 'throttled read' } },
    });
    // Inside the SDK's retry loop (deserialize step): every attempt of the next call is throttled, as
    // DynamoDB does to a hot partition; the signing, retries, repositories and handler stay real.
    let throttledAttempts = await client.db.config.maxAttempts();
    const middlewareName = 'faultInjectionThrottle';
    client.db.middlewareStack.add(
      (next) => async (args) => {
        if (throttledAttempts <= 0) return next(args);
        throttledAttempts -= 1;
        throw new ProvisionedThroughputExceededException({
          message: 'The level of configured provisioned throughput for the table was exceeded.',
          $metadata: { httpStatusCode: 400 },
        });
      },
      { step: 'deserialize', name: middlewareName },
    );
    let response: Awaited<ReturnType<typeof call>>;
    try {
      response = await call('GET', `/crm/v3/objects/companies/${String(created.body.id)}`, { token: accessToken });
    } finally {
      client.db.middlewareStack.remove(middlewareName);
    }

    expect({
      status: response.status,
      contentType: response.headers.get('content-type'),
      correlationHeader: response.headers.get('x-hubspot-correlation-id'),
      body: response.body,
      remaining: throttledAttempts,
    }).toEqual({
      status: 429,
      contentType: expect.stringMatching(/^application\/json/),
      correlationHeader: response.body.correlationId,
      body: expect.objectContaining({
        status: 'error',
        category: 'RATE_LIMITS',
        errorType: 'RATE_LIMIT',
        policyName: 'TEN_SECONDLY_ROLLING',
        correlationId: expect.any(String),
        message: expect.any(String),
      }),
      remaining: 0,
    });
  });

  it('answers 200 when DynamoDB throttles one attempt and the SDK retry succeeds', async () => {
    const { ProvisionedThroughputExceededException } = await import('@aws-sdk/client-dynamodb');
    const created = await call('POST', '/crm/v3/objects/companies', {
      token: accessToken,
      body: { properties: { name: 'throttled once' } },
    });
    let throttledAttempts = 1;
    const middlewareName = 'faultInjectionThrottleOnce';
    client.db.middlewareStack.add(
      (next) => async (args) => {
        if (throttledAttempts <= 0) return next(args);
        throttledAttempts -= 1;
        throw new ProvisionedThroughputExceededException({ message: 'throttled', $metadata: { httpStatusCode: 400 } });
      },
      { step: 'deserialize', name: middlewareName },
    );
    let response: Awaited<ReturnType<typeof call>>;
    try {
      response = await call('GET', `/crm/v3/objects/companies/${String(created.body.id)}`, { token: accessToken });
    } finally {
      client.db.middlewareStack.remove(middlewareName);
    }

    expect({ status: response.status, remaining: throttledAttempts }).toEqual({ status: 200, remaining: 0 });
  });
});

describe('a DynamoDB that stops answering (process paused, connections open)', () => {
  const outcomes: {
    operation: string;
    status: number;
    body: Record<string, unknown>;
    elapsedMs: number;
    error?: string;
  }[] = [];

  beforeAll(async () => {
    const created = await call('POST', '/crm/v3/objects/companies', {
      token: accessToken,
      body: { properties: { name: 'before the pause' } },
    });
    const companyId = String(created.body.id);
    const requests: [string, () => ReturnType<typeof call>][] = [
      ['readCompany', () => call('GET', `/crm/v3/objects/companies/${companyId}`, { token: accessToken })],
      [
        'updateRecord',
        () =>
          call('PATCH', `/crm/v3/objects/companies/${companyId}`, {
            token: accessToken,
            body: { properties: { name: 'during the pause' } },
          }),
      ],
      [
        'createRecord',
        () =>
          call('POST', '/crm/v3/objects/companies', {
            token: accessToken,
            body: { properties: { name: 'during the pause' } },
          }),
      ],
      [
        'refreshToken',
        () =>
          call('POST', '/oauth/v1/token', {
            form: {
              grant_type: 'refresh_token',
              client_id: installation.clientId,
              client_secret: installation.clientSecret,
              refresh_token: refreshToken,
            },
          }),
      ],
    ];
    // SIGSTOP: the port still accepts connections but nothing answers, the way a partitioned or
    // overloaded database looks to a client; only the client's own timeouts can end the wait.
    dynamo.process.kill('SIGSTOP');
    try {
      await untilStopped(dynamo.process.pid);
      await Promise.all(
        requests.map(async ([operation, send]) => {
          const startedAt = Date.now();
          try {
            const response = await send();
            outcomes.push({
              operation,
              status: response.status,
              body: response.body,
              elapsedMs: Date.now() - startedAt,
            });
          } catch (error) {
            outcomes.push({ operation, status: 0, body: {}, elapsedMs: Date.now() - startedAt, error: String(error) });
          }
        }),
      );
    } finally {
      dynamo.process.kill('SIGCONT');
    }
    console.log(
      `paused database: ${outcomes.map((outcome) => `${outcome.operation} ${outcome.status} in ${outcome.elapsedMs} ms`).join(', ')}`,
    );
  });

  it('answers every request with the 503 error object before the Lambda timeout', () => {
    for (const outcome of outcomes) {
      expect({
        operation: outcome.operation,
        status: outcome.status,
        category: outcome.body.category,
        correlationId: typeof outcome.body.correlationId,
      }).toEqual({
        operation: outcome.operation,
        status: 503,
        category: 'SERVICE_UNAVAILABLE',
        correlationId: 'string',
      });
    }
    expect(outcomes).toHaveLength(4);
  });

  it('serves requests again once the database answers', async () => {
    const response = await call('POST', '/crm/v3/objects/companies', {
      token: accessToken,
      body: { properties: { name: 'after the pause' } },
    });

    expect(response.status).toBe(201);
  });
});
