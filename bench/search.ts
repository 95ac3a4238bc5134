import { companyObjectType } from '../shared/objects/object-types';
import { performance } from 'node:perf_hooks';
import { QueryCommand, type DynamoDBDocumentClient, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { dynamoCallCounter } from '../shared/db/client';
import { followPages } from '../shared/db/core';
import type { CrmRecord } from '../shared/db/records';
import { searchProjectionPut } from '../shared/db/search-projection';
import { orderIndexItems, recordCountItems } from '../shared/db/order-index';
import { searchFormsOf } from '../shared/records/search-forms';
import { batchWrite } from './bulk-load';
import { recordCommands, setReturnConsumedCapacity } from './dynamo-recorder';
import { jsonRequest, type ApiClient } from './http-client';
import { ratio, round, summarize, type LatencySummary } from './stats';
import { roundSummary } from './api-latency';
import { totalCalls } from './budgets';

/** The four searches the issue names, with the target each is held to. */
export const searchCases = ['eqDomain', 'numberRangeSorted', 'containsToken', 'matchAll'] as const;
export type SearchCase = (typeof searchCases)[number];

export interface SearchCaseResult {
  case: SearchCase;
  calls: Record<string, number>;
  totalCalls: number;
  capacityUnits: number;
  total: number;
  latency: LatencySummary;
  /** eqDomain: p50 over the company read's p50; the others: p50 over the full-Query floor's p50. */
  p50Ratio: number;
  /** Answers other than 200 (503: the search passed its time budget). */
  failures: number;
  target: string;
  isMet: boolean;
}

export interface SearchLevel {
  companies: number;
  loadSeconds: number;
  companyRead: LatencySummary;
  /** Every company of the account read with the list endpoint's Query, paginated to the end. */
  fullQueryFloor: { latency: LatencySummary; queries: number; capacityUnits: number };
  cases: SearchCaseResult[];
  /** Highest resident set size seen while this level's searches ran (the gateway is in this process). */
  maxRssMiB: number;
}

export interface SearchReport {
  levels: SearchLevel[];
  /** p50 at the largest size over p50 at the smallest, per case. */
  growth: Record<SearchCase, number>;
  lambdaTimeoutMs: number;
  /** The slowest single search of the largest level. */
  maxLatencyMs: number;
}

const companiesPath = '/crm/v3/objects/companies';
/** The functions' timeout (lib/bundled-function.ts). */
const lambdaTimeoutMs = 10_000;
const words = [
  'alpha',
  'bravo',
  'charlie',
  'delta',
  'echo',
  'foxtrot',
  'golf',
  'hotel',
  'india',
  'juliet',
  'kilo',
  'lima',
  'mike',
  'november',
  'oscar',
  'papa',
  'quebec',
  'romeo',
  'sierra',
  'tango',
];
const cities = ['Boston', 'Cambridge', 'Austin', 'Denver', 'Portland'];
/** Ids of the search load: 16 digits like the service's, in creation order, apart from the scale section's. */
const benchId = (index: number): string => String(1_800_000_000_000_000 + index);
const domainOf = (index: number): string => `search-${index}.bench.example`;
const baseMs = Date.UTC(2025, 0, 1);

/**
 * Items shaped exactly as a create writes them: the recorded create's company and unique items
 * with this company's values, and its search projection rebuilt by the service's own function.
 */
function companyItems(hubId: number, template: Record<string, unknown>[], index: number): Record<string, unknown>[] {
  const id = benchId(index);
  const createdAt = new Date(baseMs + index * 1000).toISOString();
  const values = {
    name: `Company ${index} ${words[index % words.length]}`,
    domain: domainOf(index),
    city: cities[index % cities.length] ?? 'Boston',
    numberofemployees: String((index * 7919) % 10_000),
    industry: 'COMPUTER_SOFTWARE',
  };
  const items: Record<string, unknown>[] = [];
  for (const original of template) {
    // The projection and the ordered index are rebuilt below from this company's own values.
    if ('v' in original || String(original.pk).includes('#ORDER#')) continue;
    const item = structuredClone(original);
    if ('properties' in item) {
      const record = item as unknown as CrmRecord;
      record.id = id;
      record.properties = { ...values };
      record.history = Object.fromEntries(
        Object.entries(values).map(([name, value]) => [
          name,
          [
            {
              ...(record.history.name?.[0] ?? { timestamp: createdAt, sourceType: 'INTEGRATION' }),
              value,
              timestamp: createdAt,
            },
          ],
        ]),
      );
      record.uniqueValues = [{ propertyName: 'domain', value: values.domain }];
      record.createdAt = createdAt;
      record.updatedAt = createdAt;
      item.sk = String(item.sk).replace(/\d{16}$/, id);
      items.push(item);
      const forms = searchFormsOf(companyObjectType, record);
      const projection = searchProjectionPut(companyObjectType, hubId, forms, record.version).Put?.Item;
      if (projection) items.push(projection);
      items.push(...orderIndexItems(companyObjectType, hubId, forms));
    } else {
      items.push({
        ...item,
        sk: String(item.sk).replace(/#[^#]+$/, `#${values.domain}`),
        companyId: id,
        value: values.domain,
      });
    }
  }
  return items;
}

function caseRequest(searchCase: SearchCase, size: number, random: () => number) {
  switch (searchCase) {
    case 'eqDomain':
      return {
        filterGroups: [
          { filters: [{ propertyName: 'domain', operator: 'EQ', value: domainOf(Math.floor(random() * size)) }] },
        ],
      };
    case 'numberRangeSorted':
      return {
        filterGroups: [
          { filters: [{ propertyName: 'numberofemployees', operator: 'BETWEEN', value: '1000', highValue: '1999' }] },
        ],
        sorts: ['-numberofemployees'],
        properties: ['name', 'numberofemployees'],
      };
    case 'containsToken':
      return {
        filterGroups: [
          {
            filters: [
              { propertyName: 'name', operator: 'CONTAINS_TOKEN', value: words[Math.floor(random() * words.length)] },
            ],
          },
        ],
        properties: ['name'],
      };
    case 'matchAll':
      return { limit: 100 };
  }
}

async function fullQueryFloor(
  floor: DynamoDBDocumentClient,
  listQuery: Record<string, unknown>,
): Promise<{ ms: number; queries: number; capacityUnits: number }> {
  const began = performance.now();
  let queries = 0;
  let capacityUnits = 0;
  // The list request's Query without its page size, every page from the first, through the plain client.
  const { Limit: _limit, ...input } = listQuery;
  void _limit;
  for await (const page of followPages((startKey) =>
    floor.send(
      new QueryCommand({
        ...(input as QueryCommandInput),
        ReturnConsumedCapacity: 'TOTAL',
        ExclusiveStartKey: startKey,
      }),
    ),
  )) {
    queries += 1;
    capacityUnits += page.ConsumedCapacity?.CapacityUnits ?? 0;
  }
  return { ms: performance.now() - began, queries, capacityUnits };
}

/**
 * The four searches at each account size, against two floors measured in the same run: a
 * company read (GetItem) for the selective search, and reading every company of the account with
 * the list endpoint's Query, paginated, for the searches that evaluate every record.
 */
export async function measureSearch(options: {
  api: ApiClient;
  /** The client of the untimed bulk load and of the full-Query reference (a plain document client). */
  loader: DynamoDBDocumentClient;
  tableName: string;
  token: string;
  hubId: number;
  template: Record<string, unknown>[];
  levels: readonly number[];
  requests: number;
  random: () => number;
  log: (line: string) => void;
  /** Levels above this size skip the full-Query floor (it reads every company item three times); their searches are held to the Lambda timeout alone. */
  floorMaxCompanies?: number;
}): Promise<SearchReport> {
  const { api, loader, token, random } = options;
  const levels: SearchLevel[] = [];
  let loaded = 0;
  for (const target of options.levels) {
    const began = performance.now();
    const items: Record<string, unknown>[] = [];
    for (let index = loaded; index < target; index += 1)
      items.push(...companyItems(options.hubId, options.template, index));
    // The record count, as the creates would have left it: the counters of every company loaded so far, by id shard.
    items.push(
      ...recordCountItems(
        companyObjectType,
        options.hubId,
        Array.from({ length: target }, (_, index) => benchId(index)),
      ),
    );
    await batchWrite(loader, options.tableName, items, 8);
    loaded = target;
    const loadSeconds = (performance.now() - began) / 1000;
    options.log(`search: ${target} companies loaded (${items.length} items in ${loadSeconds.toFixed(1)} s)`);

    const { commands } = await recordCommands(() =>
      api.expectOk(jsonRequest('GET', `${companiesPath}?limit=100`, token)),
    );
    const listQuery = commands.find((command) => command.commandClass === QueryCommand)?.input;
    if (!listQuery) throw new Error('search: the list request sent no Query');
    const floorSamples: number[] = [];
    let floorCost = { queries: 0, capacityUnits: 0 };
    const readSamples: number[] = [];
    const hasFloor = target <= (options.floorMaxCompanies ?? Number.POSITIVE_INFINITY);
    if (!hasFloor)
      options.log(
        `search: ${target} companies: full-Query floor skipped (--search-floor-max=${options.floorMaxCompanies})`,
      );
    for (let request = 0; request < options.requests; request += 1) {
      // The floor reads the whole account each time: a few samples are enough for its median.
      if (hasFloor && request < 3) {
        const floorRun = await fullQueryFloor(loader, listQuery);
        floorSamples.push(floorRun.ms);
        floorCost = { queries: floorRun.queries, capacityUnits: floorRun.capacityUnits };
      }
      const readBegan = performance.now();
      await api.expectOk(jsonRequest('GET', `${companiesPath}/${benchId(Math.floor(random() * target))}`, token));
      readSamples.push(performance.now() - readBegan);
    }
    const companyRead = summarize(readSamples);
    const floorLatency = summarize(floorSamples);

    let maxRss = process.memoryUsage().rss;
    const cases: SearchCaseResult[] = [];
    for (const searchCase of searchCases) {
      setReturnConsumedCapacity(true);
      dynamoCallCounter.reset();
      let total = Number.NaN;
      try {
        const response = await api.send(
          jsonRequest('POST', `${companiesPath}/search`, token, caseRequest(searchCase, target, random)),
        );
        if (response.status === 200) total = (JSON.parse(response.body) as { total: number }).total;
      } finally {
        setReturnConsumedCapacity(false);
      }
      const calls = Object.fromEntries(dynamoCallCounter.calls);
      const capacityUnits = round(dynamoCallCounter.capacityUnits, 1);
      const samples: number[] = [];
      let failures = 0;
      for (let request = 0; request < options.requests; request += 1) {
        const requestBegan = performance.now();
        const response = await api.send(
          jsonRequest('POST', `${companiesPath}/search`, token, caseRequest(searchCase, target, random)),
        );
        samples.push(performance.now() - requestBegan);
        // A search past its time budget answers 503: counted, so the report shows where that starts.
        if (response.status !== 200) failures += 1;
        if (response.status !== 200 && response.status !== 503)
          throw new Error(`search ${searchCase} at ${target}: ${response.status} ${response.body.slice(0, 300)}`);
        maxRss = Math.max(maxRss, process.memoryUsage().rss);
      }
      const latency = roundSummary(summarize(samples));
      const isSelective = searchCase === 'eqDomain';
      const p50Ratio = round(ratio(latency.p50Ms, isSelective ? companyRead.p50Ms : floorLatency.p50Ms), 3);
      const withinTimeout = failures === 0 && latency.p99Ms < lambdaTimeoutMs;
      const isMet = isSelective
        ? totalCalls(calls) <= 2 && p50Ratio <= 2 && failures === 0
        : hasFloor
          ? p50Ratio <= 1.5 && capacityUnits < floorCost.capacityUnits && failures === 0
          : withinTimeout;
      const fullTarget = hasFloor
        ? 'p50 ≤ 1.5x full Query, fewer capacity units'
        : 'every answer 200 within the Lambda timeout (floor skipped)';
      cases.push({
        case: searchCase,
        calls,
        totalCalls: totalCalls(calls),
        capacityUnits,
        total,
        latency,
        p50Ratio,
        isMet,
        failures,
        target: isSelective ? '≤ 2 calls, p50 ≤ 2x company read' : fullTarget,
      });
      options.log(
        `search: ${target} ${searchCase} p50 ${latency.p50Ms} ms (${p50Ratio}x), ${totalCalls(calls)} calls, ${capacityUnits} CU, total ${total}, ${failures} failures`,
      );
    }
    levels.push({
      companies: target,
      loadSeconds: round(loadSeconds, 1),
      companyRead: roundSummary(companyRead),
      fullQueryFloor: {
        latency: roundSummary(floorLatency),
        queries: floorCost.queries,
        capacityUnits: round(floorCost.capacityUnits, 1),
      },
      cases,
      maxRssMiB: Math.round(maxRss / 2 ** 20),
    });
  }
  const first = levels[0];
  const last = levels.at(-1);
  const growth = Object.fromEntries(
    searchCases.map((searchCase) => {
      const from = first?.cases.find((entry) => entry.case === searchCase)?.latency.p50Ms ?? Number.NaN;
      const to = last?.cases.find((entry) => entry.case === searchCase)?.latency.p50Ms ?? Number.NaN;
      return [searchCase, round(ratio(to, from), 2)];
    }),
  ) as Record<SearchCase, number>;
  return {
    levels,
    growth,
    lambdaTimeoutMs,
    maxLatencyMs: Math.max(...(last?.cases.map((entry) => entry.latency.p99Ms) ?? [0])),
  };
}
