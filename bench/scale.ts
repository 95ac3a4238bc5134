import { performance } from 'node:perf_hooks';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { batchWrite, cloneCompanyItems } from './bulk-load';
import { prepareFloor, recordCommands, timeFloorReplay } from './dynamo-recorder';
import { jsonRequest, type ApiClient } from './http-client';
import { ratio, round, summarize, type LatencySummary } from './stats';
import { isBelowFloor, roundSummary } from './api-latency';

export interface ScaleLevel {
  companies: number;
  loadSeconds: number;
  listPage: ScaleSection;
  batchRead: ScaleSection;
}

/** One request's samples at one size: the API, its floor (the recorded reads replayed), and whether the API's p50 is below the floor's. */
export interface ScaleSection {
  api: LatencySummary;
  floor: LatencySummary;
  p50Ratio: number;
  isBelowFloor: boolean;
}

export interface ScaleReport {
  levels: ScaleLevel[];
  /** API p50 at the largest size over API p50 at the smallest. */
  listPageGrowth: number;
  batchReadGrowth: number;
  /** The same growth of the floor: what DynamoDB (Local) itself does as the partition grows. */
  listPageFloorGrowth: number;
  batchReadFloorGrowth: number;
  isListPageFlat: boolean;
  isBatchReadFlat: boolean;
  flatness: number;
}

const companiesPath = '/crm/v3/objects/companies';

/** Company ids of the bulk load: 16 digits starting with 1, like the service's, in creation order. */
const bulkId = (index: number): string => String(1_900_000_000_000_000 + index);

async function timed(api: ApiClient, spec: Parameters<ApiClient['send']>[0]) {
  const began = performance.now();
  const { result, commands } = await recordCommands(() => api.send(spec));
  const apiMs = performance.now() - began;
  if (result.status !== 200)
    throw new Error(`scale: ${spec.method} ${spec.path} answered ${result.status}: ${result.body.slice(0, 300)}`);
  return { apiMs, floorMs: await timeFloorReplay(prepareFloor(commands, undefined, began)) };
}

/**
 * List-page and batch-read latency as one account grows: companies are added by BatchWriteItem
 * as items shaped exactly as a create writes them (cloned from a recorded create), then the same
 * requests are timed at each size against their floor (the recorded reads, replayed through the
 * service's client in their recorded overlap).
 */
export async function measureScale(options: {
  api: ApiClient;
  /** The untimed bulk load's client. */
  loader: DynamoDBDocumentClient;
  tableName: string;
  token: string;
  template: { id: string; domain: string; items: Record<string, unknown>[] };
  levels: readonly number[];
  requests: number;
  random: () => number;
  flatness: number;
  log: (line: string) => void;
}): Promise<ScaleReport> {
  const { api, loader, token } = options;
  const levels: ScaleLevel[] = [];
  let loaded = 0;
  for (const target of options.levels) {
    const began = performance.now();
    const items: Record<string, unknown>[] = [];
    for (let index = loaded; index < target; index += 1) {
      items.push(
        ...cloneCompanyItems(options.template.items, options.template, {
          id: bulkId(index),
          domain: `scale-${index}.bench.example`,
        }),
      );
    }
    await batchWrite(loader, options.tableName, items, 8);
    loaded = target;
    const loadSeconds = (performance.now() - began) / 1000;
    options.log(`scale: ${target} companies loaded (${items.length} items in ${loadSeconds.toFixed(1)} s)`);
    const list = { api: [] as number[], floor: [] as number[] };
    const batch = { api: [] as number[], floor: [] as number[] };
    for (let request = 0; request < options.requests; request += 1) {
      const after = bulkId(Math.floor(options.random() * Math.max(1, target - 100)));
      const listTimes = await timed(api, jsonRequest('GET', `${companiesPath}?limit=100&after=${after}`, token));
      list.api.push(listTimes.apiMs);
      list.floor.push(listTimes.floorMs);
      const ids = new Set<string>();
      while (ids.size < 100) ids.add(bulkId(Math.floor(options.random() * target)));
      const batchTimes = await timed(
        api,
        jsonRequest('POST', `${companiesPath}/batch/read`, token, {
          inputs: [...ids].map((id) => ({ id })),
          properties: ['name', 'domain', 'city'],
          propertiesWithHistory: [],
        }),
      );
      batch.api.push(batchTimes.apiMs);
      batch.floor.push(batchTimes.floorMs);
    }
    const section = (samples: { api: number[]; floor: number[] }): ScaleSection => {
      const apiSummary = summarize(samples.api);
      const floorSummary = summarize(samples.floor);
      return {
        api: roundSummary(apiSummary),
        floor: roundSummary(floorSummary),
        p50Ratio: round(ratio(apiSummary.p50Ms, floorSummary.p50Ms), 3),
        isBelowFloor: isBelowFloor(apiSummary.p50Ms, floorSummary.p50Ms),
      };
    };
    levels.push({
      companies: target,
      loadSeconds: round(loadSeconds, 1),
      listPage: section(list),
      batchRead: section(batch),
    });
  }
  const first = levels[0];
  const last = levels.at(-1);
  const listPageGrowth =
    first && last ? round(ratio(last.listPage.api.p50Ms, first.listPage.api.p50Ms), 3) : Number.NaN;
  const batchReadGrowth =
    first && last ? round(ratio(last.batchRead.api.p50Ms, first.batchRead.api.p50Ms), 3) : Number.NaN;
  const listPageFloorGrowth =
    first && last ? round(ratio(last.listPage.floor.p50Ms, first.listPage.floor.p50Ms), 3) : Number.NaN;
  const batchReadFloorGrowth =
    first && last ? round(ratio(last.batchRead.floor.p50Ms, first.batchRead.floor.p50Ms), 3) : Number.NaN;
  return {
    levels,
    listPageGrowth,
    batchReadGrowth,
    listPageFloorGrowth,
    batchReadFloorGrowth,
    flatness: options.flatness,
    isListPageFlat: listPageGrowth <= options.flatness,
    isBatchReadFlat: batchReadGrowth <= options.flatness,
  };
}
