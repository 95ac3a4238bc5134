/**
 * `npm run soak`: 32 concurrent clients for 60 s through the local gateway (its own process)
 * against its own DynamoDB Local, a mixed workload of company, token and timeline calls, then
 * invariants over everything that was answered 2xx, and the gateway's heap after GC over time.
 * All traffic goes to 127.0.0.1; every loop is bounded in count and time.
 *
 *   npm run soak -- [--duration-seconds 60] [--clients 32]
 *
 * The same runSoak() runs for a few seconds inside `npm test` (test/bench/soak.test.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

export type SoakOperation =
  | 'createRecord'
  | 'readCompany'
  | 'updateRecord'
  | 'listRecords'
  | 'batchReadRecords'
  | 'putAssociation'
  | 'refreshToken'
  | 'createTimelineEvent'
  | 'readTimelineEvent';

/** Weighted so that reads dominate, as they do for real integrations; every write kind runs often. */
const workload: readonly SoakOperation[] = [
  'createRecord',
  'readCompany',
  'updateRecord',
  'readCompany',
  'listRecords',
  'batchReadRecords',
  'putAssociation',
  'refreshToken',
  'createTimelineEvent',
  'readTimelineEvent',
  'readCompany',
  'createRecord',
];

export interface SoakOptions {
  durationMs: number;
  clients: number;
  /** Memory samples of the gateway process, spread over the run. */
  memorySamples?: number;
  /** Heap growth allowed from the first third of the samples to the last third. */
  maxHeapGrowthBytes?: number;
  log?: (line: string) => void;
}

export interface SoakReport {
  durationMs: number;
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  byOperation: Record<string, { count: number; errors: number }>;
  /** Non-2xx answers and network failures, at most 20 kept. */
  errors: string[];
  errorCount: number;
  companiesCreated: number;
  timelineEventsCreated: number;
  invariantViolations: string[];
  memory: {
    canCollect: boolean;
    samplesMb: number[];
    firstThirdMb: number;
    lastThirdMb: number;
    growthMb: number;
    boundMb: number;
    isWithinBound: boolean;
  };
}

interface Session {
  baseUrl: string;
  appId: number;
  clientId: string;
  clientSecret: string;
  accessToken: string;
  refreshToken: string;
  eventTypeId: number;
}

interface ClientState {
  id: number;
  sequence: number;
  /** Company id -> the name it was last answered with. */
  companies: Map<string, string>;
  domains: Map<string, string>;
  associations: Map<string, Set<string>>;
  events: string[];
  /** Contacts made before the workload: the targets of its associations (both ends must exist). */
  contactIds: readonly string[];
}

const projectRoot = path.resolve(__dirname, '..');
const requestTimeoutMs = 10_000;

async function request(
  session: Session,
  method: string,
  pathName: string,
  body?: unknown,
  form?: Record<string, string>,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const headers: Record<string, string> = form
    ? { 'content-type': 'application/x-www-form-urlencoded' }
    : { authorization: `Bearer ${session.accessToken}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${session.baseUrl}${pathName}`, {
    method,
    headers,
    body: form ? new URLSearchParams(form).toString() : body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(requestTimeoutMs),
  });
  const text = await response.text();
  return { status: response.status, json: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
}

function startGatewayProcess(): Promise<{
  child: ChildProcess;
  baseUrl: string;
  canCollect: boolean;
  sample: () => Promise<number>;
}> {
  const child = spawn(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', path.join(projectRoot, 'bin', 'soak-gateway.ts')],
    {
      cwd: projectRoot,
      env: process.env,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  const pending: ((heapUsed: number) => void)[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the soak gateway did not start within 60 s')), 60_000);
    child.once('exit', (code) => reject(new Error(`the soak gateway exited with ${String(code)}`)));
    child.on('message', (message: { type?: string; baseUrl?: string; canCollect?: boolean; heapUsed?: number }) => {
      if (message.type === 'memory') pending.shift()?.(message.heapUsed ?? 0);
      if (message.type !== 'ready' || !message.baseUrl) return;
      clearTimeout(timer);
      resolve({
        child,
        baseUrl: message.baseUrl,
        canCollect: message.canCollect === true,
        sample: () =>
          new Promise<number>((done) => {
            pending.push(done);
            child.send('sample');
          }),
      });
    });
  });
}

async function openSession(baseUrl: string): Promise<Session> {
  const { createAccount, createApp, createUser } = await import('../shared/admin/provisioning');
  const { checkAuthorizeRequest, decideConsent } = await import('../shared/oauth/install-flow');
  const { findUserByEmail } = await import('../shared/db/users');
  const suffix = `${process.pid}-${Date.now().toString(36)}`;
  const redirectUri = 'https://soak.example/callback';
  const scopes = [
    'oauth',
    'crm.objects.companies.read',
    'crm.objects.companies.write',
    'crm.objects.contacts.write',
    'timeline',
  ];
  const app = await createApp({ name: `Soak ${suffix}`, redirectUris: [redirectUri], scopes, optionalScopes: [] });
  // Limits off: the soak measures the service under load, not the rate limiter's 429s.
  const account = await createAccount(`soak-${suffix}.example`, { tenSecondlyLimit: 0, searchPerSecondLimit: 0 });
  const created = await createUser(`soak-${suffix}@example.com`, 'soak password long enough', [account.hubId]);
  const check = await checkAuthorizeRequest({
    client_id: app.clientId,
    redirect_uri: redirectUri,
    scope: scopes.join(' '),
  });
  const user = await findUserByEmail(created.email);
  if (check.outcome !== 'ok' || !user) throw new Error(`soak install failed: ${check.outcome}`);
  const code =
    new URL(await decideConsent(check.request, check.app, user, 'allow', account.hubId)).searchParams.get('code') ?? '';
  const session: Session = {
    baseUrl,
    appId: app.appId,
    clientId: app.clientId,
    clientSecret: app.clientSecret,
    accessToken: '',
    refreshToken: '',
    eventTypeId: 0,
  };
  const token = await request(session, 'POST', '/oauth/v1/token', undefined, {
    grant_type: 'authorization_code',
    client_id: app.clientId,
    client_secret: app.clientSecret,
    redirect_uri: redirectUri,
    code,
  });
  if (token.status !== 200)
    throw new Error(`soak token exchange failed: ${token.status} ${JSON.stringify(token.json)}`);
  session.accessToken = String(token.json.access_token);
  session.refreshToken = String(token.json.refresh_token);
  // Event types are managed with the developer API key (the bearer header that request() adds is not looked at).
  const eventType = await request(
    session,
    'POST',
    `/integrations/v1/${app.appId}/timeline/event-types?hapikey=${encodeURIComponent(app.developerApiKey ?? '')}`,
    { name: 'Soak', objectType: 'COMPANY' },
  );
  if (eventType.status !== 200)
    throw new Error(`soak event type failed: ${eventType.status} ${JSON.stringify(eventType.json)}`);
  session.eventTypeId = Number(eventType.json.id);
  return session;
}

/** Picks one of the client's own companies, so its expected state is known exactly. */
function ownCompany(state: ClientState): string | undefined {
  const ids = [...state.companies.keys()];
  return ids[(state.sequence * 7) % Math.max(ids.length, 1)];
}

interface Performed {
  status: number;
  expected: number[];
  /** The start of the answer, kept for the error report. */
  detail?: string;
}

async function perform(session: Session, state: ClientState, operation: SoakOperation): Promise<Performed> {
  const companyId = ownCompany(state);
  if (operation === 'createRecord' || !companyId) {
    const domain = `c${state.id}-${state.sequence}-${process.pid}.soak.example`;
    const name = `Company ${state.id}-${state.sequence}`;
    const result = await request(session, 'POST', '/crm/v3/objects/companies', { properties: { name, domain } });
    if (result.status === 201) {
      state.companies.set(String(result.json.id), name);
      state.domains.set(String(result.json.id), domain);
    }
    return { status: result.status, expected: [201], detail: JSON.stringify(result.json).slice(0, 300) };
  }
  if (operation === 'readCompany') {
    const result = await request(session, 'GET', `/crm/v3/objects/companies/${companyId}`);
    const name = (result.json.properties as Record<string, unknown> | undefined)?.name;
    // A read after our own answered write must see it (DynamoDB GetItem here is strongly consistent).
    return {
      status: result.status === 200 && name !== state.companies.get(companyId) ? 599 : result.status,
      expected: [200],
      detail: `name ${String(name)}`,
    };
  }
  if (operation === 'updateRecord') {
    const name = `Renamed ${state.id}-${state.sequence}`;
    const result = await request(session, 'PATCH', `/crm/v3/objects/companies/${companyId}`, { properties: { name } });
    if (result.status === 200) state.companies.set(companyId, name);
    return { status: result.status, expected: [200], detail: JSON.stringify(result.json).slice(0, 300) };
  }
  if (operation === 'listRecords') {
    const result = await request(session, 'GET', '/crm/v3/objects/companies?limit=100&properties=name,domain');
    return { status: result.status, expected: [200], detail: JSON.stringify(result.json).slice(0, 300) };
  }
  if (operation === 'batchReadRecords') {
    const inputs = [...state.companies.keys()].slice(-100).map((id) => ({ id }));
    const result = await request(session, 'POST', '/crm/v3/objects/companies/batch/read', {
      inputs,
      properties: ['name'],
      propertiesWithHistory: [],
    });
    const found = (result.json.results as unknown[] | undefined)?.length ?? 0;
    return { status: result.status === 200 && found !== inputs.length ? 599 : result.status, expected: [200] };
  }
  if (operation === 'putAssociation') {
    const contactId = state.contactIds[state.sequence % state.contactIds.length] ?? '';
    const result = await request(
      session,
      'PUT',
      `/crm/v3/objects/companies/${companyId}/associations/contacts/${contactId}/280`,
    );
    if (result.status === 200) {
      const contacts = state.associations.get(companyId) ?? new Set<string>();
      contacts.add(contactId);
      state.associations.set(companyId, contacts);
    }
    return { status: result.status, expected: [200], detail: JSON.stringify(result.json).slice(0, 300) };
  }
  if (operation === 'refreshToken') {
    const result = await request(session, 'POST', '/oauth/v1/token', undefined, {
      grant_type: 'refresh_token',
      client_id: session.clientId,
      client_secret: session.clientSecret,
      refresh_token: session.refreshToken,
    });
    return { status: result.status, expected: [200], detail: JSON.stringify(result.json).slice(0, 300) };
  }
  if (operation === 'createTimelineEvent' || state.events.length === 0) {
    const eventId = `e${state.id}-${state.sequence}`;
    const result = await request(session, 'POST', `/integrations/v1/${session.appId}/timeline/event`, {
      id: eventId,
      eventTypeId: session.eventTypeId,
      objectId: Number(companyId),
    });
    if (result.status === 204) state.events.push(eventId);
    return { status: result.status, expected: [204], detail: JSON.stringify(result.json).slice(0, 300) };
  }
  const eventId = state.events[state.sequence % state.events.length] ?? '';
  const result = await request(
    session,
    'GET',
    `/integrations/v1/${session.appId}/timeline/event/${session.eventTypeId}/${eventId}`,
  );
  return { status: result.status, expected: [200], detail: JSON.stringify(result.json).slice(0, 300) };
}

function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0;
}

const mean = (values: readonly number[]) =>
  values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;

/** Runs up to `limit` tasks at once over the items. */
async function forEachLimited<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const item = items[next] as T;
        next += 1;
        await task(item);
      }
    }),
  );
}

async function checkInvariants(session: Session, states: readonly ClientState[]): Promise<string[]> {
  const violations: string[] = [];
  const expectedNames = new Map<string, string>();
  const expectedDomains = new Map<string, string>();
  for (const state of states) {
    for (const [id, name] of state.companies) expectedNames.set(id, name);
    for (const [id, domain] of state.domains) expectedDomains.set(id, domain);
  }
  // The soak's hub is fresh: the active companies listed are exactly the creates answered 201.
  const listed = new Map<string, string>();
  let after: string | undefined;
  for (let page = 0; page < 10_000; page += 1) {
    const result = await request(
      session,
      'GET',
      `/crm/v3/objects/companies?limit=100&properties=domain${after ? `&after=${after}` : ''}`,
    );
    if (result.status !== 200) {
      violations.push(`list page ${page}: ${result.status}`);
      break;
    }
    for (const company of (result.json.results ?? []) as { id: string; properties: Record<string, string> }[])
      listed.set(company.id, company.properties.domain ?? '');
    after = (result.json.paging as { next?: { after?: string } } | undefined)?.next?.after;
    if (!after) break;
  }
  if (listed.size !== expectedNames.size)
    violations.push(`listed ${listed.size} active companies, ${expectedNames.size} creates were answered 201`);
  const domainOwners = new Map<string, string>();
  for (const [id, domain] of listed) {
    const owner = domainOwners.get(domain);
    if (owner !== undefined) violations.push(`domain ${domain} held by ${owner} and ${id}`);
    domainOwners.set(domain, id);
    if (expectedDomains.get(id) !== domain)
      violations.push(`company ${id} lists domain ${domain}, expected ${String(expectedDomains.get(id))}`);
  }
  const ids = [...expectedNames.keys()];
  const chunks = Array.from({ length: Math.ceil(ids.length / 100) }, (_, index) =>
    ids.slice(index * 100, index * 100 + 100),
  );
  await forEachLimited(chunks, 8, async (chunk) => {
    const result = await request(session, 'POST', '/crm/v3/objects/companies/batch/read', {
      inputs: chunk.map((id) => ({ id })),
      properties: ['name'],
      propertiesWithHistory: [],
    });
    const names = new Map(
      ((result.json.results ?? []) as { id: string; properties: Record<string, string> }[]).map((company) => [
        company.id,
        company.properties.name,
      ]),
    );
    for (const id of chunk) {
      if (names.get(id) !== expectedNames.get(id))
        violations.push(`company ${id} reads ${String(names.get(id))}, last answered ${String(expectedNames.get(id))}`);
    }
  });
  const associated = states.flatMap((state) => [...state.associations]);
  await forEachLimited(associated, 16, async ([companyId, contacts]) => {
    const result = await request(session, 'GET', `/crm/v3/objects/companies/${companyId}?associations=contacts`);
    const found = new Set(
      (
        (result.json.associations as { contacts?: { results?: { id: string }[] } } | undefined)?.contacts?.results ?? []
      ).map((entry) => entry.id),
    );
    for (const contact of contacts)
      if (!found.has(contact)) violations.push(`company ${companyId} lost its association to contact ${contact}`);
  });
  const events = states.flatMap((state) => state.events);
  await forEachLimited(events, 16, async (eventId) => {
    const result = await request(
      session,
      'GET',
      `/integrations/v1/${session.appId}/timeline/event/${session.eventTypeId}/${eventId}`,
    );
    if (result.status !== 200) violations.push(`timeline event ${eventId}: ${result.status}`);
  });
  return violations.slice(0, 50);
}

/** Contacts for the workload to associate companies with: one batch create. */
async function createSoakContacts(session: Session, count: number): Promise<string[]> {
  const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  const result = await request(session, 'POST', '/crm/v3/objects/contacts/batch/create', {
    inputs: Array.from({ length: count }, (_, index) => ({
      properties: { email: `soak${index}.${suffix}@soak.example` },
    })),
  });
  const ids = ((result.json.results as { id: string }[] | undefined) ?? []).map((contact) => contact.id);
  if (result.status !== 201 || ids.length !== count)
    throw new Error(`creating the soak's contacts: ${result.status} ${JSON.stringify(result.json).slice(0, 300)}`);
  return ids;
}

/**
 * Starts the gateway process (using this process's DynamoDB environment), drives the workload,
 * then checks invariants. Needs TABLE_NAME, DYNAMODB_ENDPOINT and the token keys in the environment.
 */
export async function runSoak(options: SoakOptions): Promise<SoakReport> {
  const log = options.log ?? (() => undefined);
  const gateway = await startGatewayProcess();
  try {
    const session = await openSession(gateway.baseUrl);
    const contactIds = await createSoakContacts(session, 50);
    const states: ClientState[] = Array.from({ length: options.clients }, (_, id) => ({
      id,
      sequence: 0,
      companies: new Map(),
      domains: new Map(),
      associations: new Map(),
      events: [],
      contactIds,
    }));
    const latencies: number[] = [];
    const byOperation: Record<string, { count: number; errors: number }> = {};
    const errors: string[] = [];
    let errorCount = 0;
    // Warm every route's handler once, so the first memory sample is not taken before the code loads.
    for (const operation of workload) await perform(session, states[0] as ClientState, operation);
    const samplesMb: number[] = [];
    const sampleCount = options.memorySamples ?? 12;
    const startedAt = performance.now();
    const deadline = startedAt + options.durationMs;
    // The first quarter under full load warms the JIT and the SDK's lazy state; the heap is sampled
    // over the rest, so growth means retained memory, not code that was still being compiled.
    const warmupMs = options.durationMs / 4;
    const sampler = (async () => {
      for (let index = 0; index < sampleCount; index += 1) {
        const wait = Math.max(
          0,
          startedAt + warmupMs + (index * (options.durationMs - warmupMs)) / sampleCount - performance.now(),
        );
        await new Promise((resolve) => setTimeout(resolve, wait));
        samplesMb.push((await gateway.sample()) / 1024 / 1024);
      }
    })();
    await Promise.all(
      states.map(async (state) => {
        // Bounded in count too: at most one request per millisecond of the run per client.
        for (let count = 0; count < options.durationMs && performance.now() < deadline; count += 1) {
          state.sequence += 1;
          const operation = workload[(state.sequence + state.id) % workload.length] ?? 'readCompany';
          const began = performance.now();
          let outcome: Performed;
          try {
            outcome = await perform(session, state, operation);
          } catch (error) {
            outcome = { status: 0, expected: [] };
            if (errors.length < 20) errors.push(`${operation}: ${String(error)}`);
          }
          latencies.push(performance.now() - began);
          const tally = byOperation[operation] ?? { count: 0, errors: 0 };
          tally.count += 1;
          if (!outcome.expected.includes(outcome.status)) {
            tally.errors += 1;
            errorCount += 1;
            if (outcome.status !== 0 && errors.length < 20)
              errors.push(`${operation}: ${outcome.status} ${outcome.detail ?? ''}`);
          }
          byOperation[operation] = tally;
        }
      }),
    );
    const durationMs = performance.now() - startedAt;
    await sampler;
    log(`soak: ${latencies.length} requests in ${(durationMs / 1000).toFixed(1)} s; checking invariants`);
    const invariantViolations = await checkInvariants(session, states);
    const sorted = [...latencies].sort((left, right) => left - right);
    const third = Math.max(1, Math.floor(samplesMb.length / 3));
    const firstThirdMb = mean(samplesMb.slice(0, third));
    const lastThirdMb = mean(samplesMb.slice(-third));
    const boundMb = (options.maxHeapGrowthBytes ?? 4 * 1024 * 1024) / 1024 / 1024;
    return {
      durationMs,
      requests: latencies.length,
      requestsPerSecond: latencies.length / (durationMs / 1000),
      p50Ms: percentile(sorted, 0.5),
      p99Ms: percentile(sorted, 0.99),
      byOperation,
      errors,
      errorCount,
      companiesCreated: states.reduce((sum, state) => sum + state.companies.size, 0),
      timelineEventsCreated: states.reduce((sum, state) => sum + state.events.length, 0),
      invariantViolations,
      memory: {
        canCollect: gateway.canCollect,
        samplesMb,
        firstThirdMb,
        lastThirdMb,
        growthMb: lastThirdMb - firstThirdMb,
        boundMb,
        isWithinBound: gateway.canCollect && lastThirdMb - firstThirdMb <= boundMb,
      },
    };
  } finally {
    gateway.child.disconnect();
    await new Promise((resolve) => {
      if (gateway.child.exitCode !== null) return resolve(undefined);
      gateway.child.once('exit', resolve);
      setTimeout(() => gateway.child.kill('SIGKILL'), 5000).unref();
    });
  }
}

export function formatSoakReport(report: SoakReport): string {
  const lines = [
    `requests      ${report.requests} in ${(report.durationMs / 1000).toFixed(1)} s = ${report.requestsPerSecond.toFixed(0)} req/s`,
    `latency       p50 ${report.p50Ms.toFixed(1)} ms, p99 ${report.p99Ms.toFixed(1)} ms`,
    `errors        ${report.errorCount}${report.errors.length > 0 ? ` (${report.errors.join('; ')})` : ''}`,
    `created       ${report.companiesCreated} companies, ${report.timelineEventsCreated} timeline events`,
    `invariants    ${report.invariantViolations.length === 0 ? 'all hold' : report.invariantViolations.join('\n              ')}`,
    `gateway heap  after GC: first third ${report.memory.firstThirdMb.toFixed(1)} MB, last third ${report.memory.lastThirdMb.toFixed(1)} MB, ` +
      `growth ${report.memory.growthMb.toFixed(2)} MB (bound ${report.memory.boundMb} MB)${report.memory.canCollect ? '' : ' [no --expose-gc]'}`,
    `              samples ${report.memory.samplesMb.map((value) => value.toFixed(1)).join(' ')}`,
    'per operation',
    ...Object.entries(report.byOperation).map(
      ([operation, tally]) =>
        `  ${operation.padEnd(22)} ${String(tally.count).padStart(7)} requests, ${tally.errors} errors`,
    ),
  ];
  return lines.join('\n');
}

/** The soak as `npm run soak` runs it (bin/soak.ts): its own DynamoDB Local, then runSoak with the command line's options. */
export async function runSoakCommand(): Promise<void> {
  const { values } = parseArgs({
    options: { 'duration-seconds': { type: 'string', default: '60' }, clients: { type: 'string', default: '32' } },
  });
  const { applyLocalEnvironment } = await import('../local/local-env');
  const { ensureTable, startDynamoDbLocal } = await import('../local/dynamodb-local');
  const stateDir = mkdtempSync(path.join(tmpdir(), 'hubspot-slice-soak-'));
  const dynamo = await startDynamoDbLocal();
  try {
    const tableName = 'hubspot-platform-soak';
    applyLocalEnvironment({
      endpoint: dynamo.endpoint,
      tableName,
      secretsFile: path.join(stateDir, 'secrets.json'),
      logLevel: 'ERROR',
    });
    await ensureTable(dynamo.endpoint, tableName);
    const durationMs = Number(values['duration-seconds']) * 1000;
    const clients = Number(values.clients);
    console.log(`soak: ${clients} clients for ${durationMs / 1000} s against ${dynamo.endpoint}`);
    const report = await runSoak({ durationMs, clients, memorySamples: 30, log: (line) => console.log(line) });
    console.log(formatSoakReport(report));
    const isPassing = report.errorCount === 0 && report.invariantViolations.length === 0 && report.memory.isWithinBound;
    console.log(isPassing ? 'soak passed' : 'soak FAILED');
    process.exitCode = isPassing ? 0 : 1;
  } finally {
    await dynamo.stop();
    rmSync(stateDir, { recursive: true, force: true });
  }
}
