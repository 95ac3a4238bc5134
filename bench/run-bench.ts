import { measureContactSearch, type ContactSearchReport } from './contact-search';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startGateway } from '../local/local-gateway';
import { buildValidators } from '../bin/build-validators';
import { measureColdStarts, type ColdStartReport } from './cold-start';
import { measureCosts, measureWarmLatency, type CostRow, type LatencyRow } from './api-latency';
import { copyIntoFloorKeys } from './bulk-load';
import { floorKeyPrefix, installRecorder, loaderClient, recordCommands, type RecordedCommand } from './dynamo-recorder';
import {
  createCompanies,
  createContacts,
  createCustomType,
  createTimelineEvent,
  installApp,
  seedJournal,
  companyProperties,
  uniqueName,
} from './bench-data';
import { ApiClient, jsonRequest } from './http-client';
import { createListAccounts } from './list-accounts';
import { measureListEvaluation, measureListMemberships, type ListsScaleReport } from './list-scale';
import { operations, seededRandom, type BenchState } from './operations';
import { measureScale, type ScaleReport } from './scale';
import { measureSearch, type SearchReport } from './search';
import { measureSearchFairness, type FairnessReport } from './search-fairness';
import { measureThroughput, type ThroughputReport } from './throughput';
import { measureHttpHop } from './http-hop';
import { measureWebhooks, type WebhooksReport } from './webhook-delivery';
import type { LatencySummary } from './stats';

import type { SectionName } from './section-names';

export interface BenchOptions {
  mode: 'full' | 'quick';
  sections: ReadonlySet<SectionName>;
  coldStartRuns: number;
  warmIterations: number;
  warmChunk: number;
  /** Requests of each warm row sent first and not counted (code V8 has not optimized yet). */
  warmWarmup: number;
  /** Rows with a cap of their own (a request writing 100 records): at most this many requests, after this many not counted. */
  heavyWarm: { iterations: number; warmup: number };
  /** The cold section's functions when --functions names none; every route's when absent. */
  coldFunctions?: readonly string[];
  poolSize: number;
  scaleLevels: number[];
  scaleRequests: number;
  searchLevels: number[];
  searchRequests: number;
  /** Members of the MANUAL list whose pages the lists section reads, at each level (--list-levels). */
  listLevels: number[];
  /** Timed page requests per case and level, after this many not counted. */
  listRequests: number;
  listWarmup: number;
  /** Contacts the lists section's DYNAMIC list is first evaluated over (--list-contacts; 0: not measured). */
  listEvaluationContacts: number;
  /** Search levels above this many companies skip the full-Query floor (--search-floor-max). */
  searchFloorMax?: number;
  /** Only these operations in the costs and warm sections (--operations); all when absent. */
  operations?: ReadonlySet<string>;
  /** Only these functions (route names) in the cold section (--functions); all when absent. */
  functions?: ReadonlySet<string>;
  /** Companies of the searching account in the fairness section, and seconds per attack. */
  fairnessCompanies: number;
  fairnessSeconds: number;
  throughputSeconds: number;
  throughputConnections: number;
  webhookWrites: number;
  webhookConnections: number;
  /** The second webhook burst spreads its writes over this many accounts of the one app. */
  webhookAccounts: number;
}

export const fullOptions: Omit<BenchOptions, 'sections'> = {
  mode: 'full',
  coldStartRuns: 21,
  warmIterations: 2000,
  warmChunk: 20,
  warmWarmup: 100,
  heavyWarm: { iterations: Number.POSITIVE_INFINITY, warmup: 20 },
  poolSize: 1000,
  scaleLevels: [1_000, 10_000, 100_000],
  scaleRequests: 300,
  searchLevels: [1_000, 10_000, 100_000],
  searchRequests: 10,
  listLevels: [1_000, 100_000],
  listRequests: 300,
  listWarmup: 20,
  listEvaluationContacts: 100_000,
  fairnessCompanies: 80,
  fairnessSeconds: 15,
  throughputSeconds: 10,
  throughputConnections: 32,
  webhookWrites: 1000,
  webhookConnections: 16,
  webhookAccounts: 4,
};

/**
 * The quick run's cold section: the floor and these functions only (a full cold section builds and
 * times every route's bundle, about 15 minutes on 2 cores): the record create and read, the search,
 * the heaviest bundle and the token endpoint.
 */
export const quickColdFunctions: readonly string[] = [
  'createObject',
  'getObject',
  'searchObjects',
  'batchCreateObjects',
  'issueToken',
];

export const quickOptions: Omit<BenchOptions, 'sections'> = {
  mode: 'quick',
  coldStartRuns: 3,
  warmIterations: 30,
  warmChunk: 1,
  warmWarmup: 10,
  heavyWarm: { iterations: 6, warmup: 2 },
  coldFunctions: quickColdFunctions,
  poolSize: 100,
  scaleLevels: [500, 2_000],
  scaleRequests: 40,
  searchLevels: [500, 2_000],
  searchRequests: 5,
  listLevels: [1_000, 5_000],
  listRequests: 30,
  listWarmup: 5,
  listEvaluationContacts: 2_000,
  fairnessCompanies: 40,
  fairnessSeconds: 2,
  throughputSeconds: 2,
  throughputConnections: 32,
  webhookWrites: 100,
  webhookConnections: 16,
  webhookAccounts: 4,
};

export interface BenchReport {
  generatedAt: string;
  mode: BenchOptions['mode'];
  machine: { cpus: number; cpuModel: string; memoryGiB: number; node: string; platform: string };
  durationSeconds: number;
  sectionSeconds: Record<string, number>;
  targets: { coldInitRatio: number; coldBundleOverFloorKiB: number; warmP50Ratio: number; scaleFlatness: number };
  coldStart?: ColdStartReport;
  costs?: CostRow[];
  warmLatency?: LatencyRow[];
  /** The loopback HTTP round trip alone (in every API figure, in no floor). */
  httpHop?: LatencySummary;
  scale?: ScaleReport;
  search?: SearchReport;
  contactSearch?: ContactSearchReport;
  lists?: ListsScaleReport;
  fairness?: FairnessReport;
  throughput?: ThroughputReport;
  webhooks?: WebhooksReport;
}

export const targets = { coldInitRatio: 1.15, coldBundleOverFloorKiB: 100, warmP50Ratio: 1.3, scaleFlatness: 1.2 };

/** Runs the chosen sections against the DynamoDB Local and environment bin/bench.ts set up. */
export async function runBench(
  options: BenchOptions,
  env: { endpoint: string; tableName: string; region: string; log: (line: string) => void },
): Promise<BenchReport> {
  const { log } = env;
  const began = performance.now();
  const sectionSeconds: Record<string, number> = {};
  const timeSection = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    const start = performance.now();
    try {
      return await fn();
    } finally {
      sectionSeconds[name] = Math.round((performance.now() - start) / 100) / 10;
      log(`${name}: ${sectionSeconds[name]} s`);
    }
  };
  const report: BenchReport = {
    generatedAt: new Date().toISOString(),
    mode: options.mode,
    machine: {
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model ?? 'unknown',
      memoryGiB: Math.round(totalmem() / 2 ** 30),
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
    },
    durationSeconds: 0,
    sectionSeconds,
    targets,
  };

  const generated = await timeSection('validators', () => buildValidators());
  log(`generated ${generated.count} precompiled validators`);

  if (options.sections.has('cold')) {
    const outDir = mkdtempSync(path.join(tmpdir(), 'bench-bundles-'));
    const functions = options.functions ?? (options.coldFunctions ? new Set(options.coldFunctions) : undefined);
    if (!options.functions && options.coldFunctions)
      log(
        `cold: ${options.mode} run: ${options.coldFunctions.length} functions only (${options.coldFunctions.join(', ')}); --sections=cold without --quick times every function`,
      );
    try {
      report.coldStart = await timeSection('cold', () =>
        measureColdStarts({
          outDir,
          runs: options.coldStartRuns,
          environment: coldStartEnvironment(),
          log,
          functions,
        }),
      );
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  }

  // Every section but the cold starts runs against the gateway.
  const needsGateway = [...options.sections].some((name) => name !== 'cold');
  if (!needsGateway) return finish(report, began);

  installRecorder();
  const gateway = await startGateway(0);
  const api = new ApiClient(gateway.baseUrl);
  // Untimed work only (bulk loads, the floor's copy of the items): every floor is replayed through the service's own client.
  const loader = loaderClient(env.endpoint, env.region);
  try {
    const state = await timeSection('setup', async (): Promise<BenchState> => {
      const install = await installApp(api);
      // Only the shared operations use the pool; scale and search load their own accounts.
      const needsPool = ['costs', 'warm', 'throughput'].some((name) => options.sections.has(name as SectionName));
      const limitedInstall = await installApp(api, { rateLimited: true });
      const poolIds = needsPool ? await createCompanies(api, install.accessToken, options.poolSize) : [];
      const contactPool = needsPool ? await createContacts(api, install.accessToken, options.poolSize) : [];
      const timeline = await createTimelineEvent(api, install);
      const limitedIds = await createCompanies(api, limitedInstall.accessToken, 20);
      const installToEnd = await installApp(api);
      const customTypeId = await createCustomType(api, install.accessToken);
      // The list-write rows' accounts; each PATCH row moves its account's contacts between the lists' cities.
      const listAccounts = needsPool ? await createListAccounts(api, 20) : undefined;
      return {
        listAccounts,
        install,
        limitedInstall,
        limitedIds,
        poolIds,
        createdIds: [],
        contactPool,
        createdContacts: [],
        createdProducts: [],
        customTypeId,
        installToEnd,
        timeline,
        journalOffsets: await seedJournal(install),
        random: seededRandom(6),
      };
    });

    const chosen = options.operations
      ? operations.filter((operation) => options.operations?.has(operation.name))
      : operations;
    if (options.operations && chosen.length !== options.operations.size) {
      throw new Error(
        `unknown operations in --operations; known: ${operations.map((operation) => operation.name).join(', ')}`,
      );
    }
    if (options.sections.has('costs'))
      report.costs = await timeSection('costs', () => measureCosts(api, state, chosen));

    if (options.sections.has('warm')) {
      report.warmLatency = await timeSection('warm', async () => {
        const copied = await copyIntoFloorKeys(loader, env.tableName, floorKeyPrefix);
        log(`warm: copied ${copied} items into the floor's key space (${floorKeyPrefix}<pk>) of the service's table`);
        const rows: LatencyRow[] = [];
        for (const operation of chosen.filter((candidate) => candidate.isWarm)) {
          rows.push(
            await measureWarmLatency({
              api,
              state,
              operation,
              iterations:
                operation.warmIterations === undefined
                  ? options.warmIterations
                  : Math.min(options.warmIterations, operation.warmIterations, options.heavyWarm.iterations),
              chunk: options.warmChunk,
              floorKeyPrefix,
              targetRatio: targets.warmP50Ratio,
              warmup: operation.warmIterations === undefined ? options.warmWarmup : options.heavyWarm.warmup,
            }),
          );
          log(`warm: ${operation.name} p50 ${rows.at(-1)?.api.p50Ms} ms vs floor ${rows.at(-1)?.floor.p50Ms} ms`);
        }
        return rows;
      });
      report.httpHop = await measureHttpHop(options.warmIterations);
    }

    if (options.sections.has('throughput')) {
      const id = state.poolIds[0] ?? '';
      const readPath = `/crm/v3/objects/companies/${id}`;
      const { commands } = await recordCommands(() =>
        api.expectOk(jsonRequest('GET', readPath, state.install.accessToken)),
      );
      report.throughput = await timeSection('throughput', () =>
        measureThroughput({
          baseUrl: gateway.baseUrl,
          path: readPath,
          token: state.install.accessToken,
          connections: options.throughputConnections,
          durationSeconds: options.throughputSeconds,
          commands,
        }),
      );
    }

    if (options.sections.has('webhooks')) {
      report.webhooks = await timeSection('webhooks', () =>
        measureWebhooks({
          api,
          endpoint: env.endpoint,
          tableName: env.tableName,
          writes: options.webhookWrites,
          connections: options.webhookConnections,
          accounts: options.webhookAccounts,
          warmIterations: Math.min(options.warmIterations, 300),
          log,
        }),
      );
    }

    if (options.sections.has('scale')) {
      report.scale = await timeSection('scale', async () => {
        const install = await installApp(api);
        const properties = companyProperties(uniqueName('template'));
        const { result, commands } = await recordCommands(() =>
          api.expectOk(jsonRequest('POST', '/crm/v3/objects/companies', install.accessToken, { properties })),
        );
        return measureScale({
          api,
          loader,
          tableName: env.tableName,
          token: install.accessToken,
          template: {
            id: (JSON.parse(result.body) as { id: string }).id,
            domain: properties.domain ?? '',
            items: putItemsOf(commands),
          },
          levels: options.scaleLevels,
          requests: options.scaleRequests,
          random: seededRandom(7),
          flatness: targets.scaleFlatness,
          log,
        });
      });
    }

    if (options.sections.has('search')) {
      report.search = await timeSection('search', async () => {
        const install = await installApp(api);
        const properties = companyProperties(uniqueName('search-template'));
        const { commands } = await recordCommands(() =>
          api.expectOk(jsonRequest('POST', '/crm/v3/objects/companies', install.accessToken, { properties })),
        );
        return measureSearch({
          api,
          loader,
          tableName: env.tableName,
          token: install.accessToken,
          hubId: install.hubId,
          template: putItemsOf(commands),
          levels: options.searchLevels,
          requests: options.searchRequests,
          random: seededRandom(8),
          log,
          floorMaxCompanies: options.searchFloorMax,
        });
      });
    }

    // The search section runs the contacts' ordered pages too; `contacts` alone runs only them (the opt-in 1M level).
    if (options.sections.has('search') || options.sections.has('contacts')) {
      report.contactSearch = await timeSection('contacts', async () => {
        const install = await installApp(api);
        return measureContactSearch({
          api,
          loader,
          tableName: env.tableName,
          token: install.accessToken,
          hubId: install.hubId,
          levels: options.searchLevels,
          requests: options.searchRequests,
          log,
        });
      });
    }

    if (options.sections.has('lists')) {
      report.lists = await timeSection('lists', async () => {
        const members = await installApp(api);
        const memberships = await measureListMemberships({
          api,
          loader,
          tableName: env.tableName,
          token: members.accessToken,
          hubId: members.hubId,
          levels: options.listLevels,
          requests: options.listRequests,
          warmup: options.listWarmup,
          targetRatio: targets.warmP50Ratio,
          random: seededRandom(9),
          log,
        });
        if (options.listEvaluationContacts <= 0) return { memberships };
        const evaluated = await installApp(api);
        const evaluation = await measureListEvaluation({
          api,
          loader,
          tableName: env.tableName,
          token: evaluated.accessToken,
          hubId: evaluated.hubId,
          contacts: options.listEvaluationContacts,
          log,
        });
        return { memberships, evaluation };
      });
    }

    if (options.sections.has('fairness')) {
      report.fairness = await timeSection('fairness', () =>
        measureSearchFairness({
          api,
          baseUrl: gateway.baseUrl,
          companies: options.fairnessCompanies,
          seconds: options.fairnessSeconds,
          log,
        }),
      );
    }
  } finally {
    api.close();
    loader.destroy();
    await gateway.close();
  }
  return finish(report, began);
}

function finish(report: BenchReport, began: number): BenchReport {
  report.durationSeconds = Math.round((performance.now() - began) / 1000);
  return report;
}

/** The items a recorded create wrote (its transaction's Puts), the template of the bulk load. */
function putItemsOf(commands: readonly RecordedCommand[]): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = [];
  for (const { input } of commands) {
    for (const entry of (input.TransactItems ?? []) as { Put?: { Item?: Record<string, unknown> } }[]) {
      if (entry.Put?.Item) items.push(entry.Put.Item);
    }
  }
  if (items.length === 0) throw new Error('the template create wrote no items');
  return items;
}

/** What a function's process sees: the configuration of this run, as Lambda would pass it. */
function coldStartEnvironment(): NodeJS.ProcessEnv {
  const names = [
    'PATH',
    'AWS_REGION',
    'TABLE_NAME',
    'TOKEN_PUBLIC_KEYS',
    'DYNAMODB_ENDPOINT',
    'SECRETS_FILE',
    'LOG_LEVEL',
  ];
  return {
    ...Object.fromEntries(
      names.filter((name) => process.env[name] !== undefined).map((name) => [name, process.env[name]]),
    ),
    TZ: ':UTC',
  };
}
