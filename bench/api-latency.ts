import { performance } from 'node:perf_hooks';
import { dynamoCallCounter } from '../shared/db/client';
import { dynamicListsOf } from '../shared/lists/dynamic-lists';
import { objectTypes } from '../shared/objects/object-types';
import { verifyAccessToken } from '../shared/oauth/access-token';
import { forgetInstallState, standingOfAccessToken } from '../shared/oauth/install-status';
import { checkBudget, totalCalls, type BudgetVerdict } from './budgets';
import {
  countUnprocessedRetries,
  type FloorReplay,
  prepareFloor,
  recordCommands,
  setReturnConsumedCapacity,
  timeFloorReplay,
} from './dynamo-recorder';
import type { ApiClient, ApiRequest } from './http-client';
import type { BenchState, Operation } from './operations';
import { ratio, round, summarize, type LatencySummary } from './stats';

export interface CostRow {
  operation: string;
  label: string;
  calls: Record<string, number>;
  totalCalls: number;
  capacityUnits: number;
  /** Batch calls that retried unprocessed keys: allowed on top of the budget. */
  unprocessedRetries: number;
  budget: Record<string, number>;
  verdict: BudgetVerdict;
}

/** Sends one request and checks its status; returns the response and the commands it sent. */
async function sendRecorded(api: ApiClient, operation: Operation, spec: ApiRequest, state: BenchState) {
  const { result, commands } = await recordCommands(() => api.send(spec));
  const expected = operation.expectedStatus;
  const isOk = expected === undefined ? result.status >= 200 && result.status <= 299 : result.status === expected;
  if (!isOk)
    throw new Error(
      `${operation.name}: ${spec.method} ${spec.path} answered ${result.status}: ${result.body.slice(0, 500)}`,
    );
  operation.afterResponse?.(result, state);
  return { response: result, commands };
}

/**
 * Puts this process's caches (it runs the gateway) as a warm instance has them. The install check's:
 * the state of the request's token cached (the check reads it once a minute, so a slow run would
 * otherwise charge that read to whichever request comes after the minute), or nothing cached when
 * asked. The DYNAMIC lists' (shared/lists/dynamic-lists.ts): the lists of every type of the request's
 * account (and of `hubIds`) read, as a record write finds them within minutes of the last (their
 * token in the write's transaction makes an old copy safe).
 */
export async function warmCachedState(
  spec: ApiRequest,
  options: { installState?: Operation['installState']; hubIds?: readonly number[]; typeIds?: readonly string[] } = {},
): Promise<void> {
  const token = /^Bearer (\S+)$/.exec(spec.headers?.authorization ?? '')?.[1];
  const verified = token === undefined ? undefined : verifyAccessToken(token);
  const hubs = new Set<number>(options.hubIds);
  if (verified?.outcome === 'valid') hubs.add(verified.claims.hubId);
  const typeIds = [...objectTypes.map((type) => type.id), ...(options.typeIds ?? [])];
  for (const hubId of hubs) await Promise.all(typeIds.map((typeId) => dynamicListsOf(hubId, typeId)));
  if (options.installState === 'notCached') forgetInstallState();
  else if (verified?.outcome === 'valid') await standingOfAccessToken(verified.claims);
}

/** One request per operation with the SDK counter reset before it: calls and consumed capacity. */
export async function measureCosts(
  api: ApiClient,
  state: BenchState,
  operations: readonly Operation[],
): Promise<CostRow[]> {
  const rows: CostRow[] = [];
  setReturnConsumedCapacity(true);
  try {
    for (const operation of operations) {
      const spec = operation.request(0, state);
      await warmCachedState(spec, {
        installState: operation.installState,
        hubIds: state.testAccount ? [state.testAccount.hubId] : [],
        typeIds: [state.customTypeId],
      });
      dynamoCallCounter.reset();
      const { commands } = await sendRecorded(api, operation, spec, state);
      const calls = Object.fromEntries(dynamoCallCounter.calls);
      const unprocessedRetries = countUnprocessedRetries(commands);
      rows.push({
        operation: operation.name,
        label: operation.label,
        calls,
        totalCalls: totalCalls(calls),
        capacityUnits: round(dynamoCallCounter.capacityUnits, 2),
        budget: { ...operation.budget },
        unprocessedRetries,
        verdict: checkBudget({ operation: operation.name, calls, unprocessedRetries }, operation.budget),
      });
    }
  } finally {
    setReturnConsumedCapacity(false);
  }
  return rows;
}

export interface LatencyRow {
  operation: string;
  label: string;
  api: LatencySummary;
  floor: LatencySummary;
  p50Ratio: number;
  p99Ratio: number;
  isWithinTarget: boolean;
  /**
   * The API's p50 below its floor's: impossible for a true floor (the same calls, in the same
   * overlap, through the same client, without the service's work), so the run fails on it.
   */
  isBelowFloor: boolean;
}

/** Whether a measured median is below the median of its floor (a floor that is no floor). */
export const isBelowFloor = (measuredMs: number, floorMs: number): boolean =>
  Number.isFinite(measuredMs) && Number.isFinite(floorMs) && measuredMs < floorMs;

/**
 * Warm latency of one operation against its floor. The API request goes through the gateway
 * (event mapping, middy, validation, token check, domain code, SDK); the floor sends the very
 * DynamoDB commands that request sent, recorded on the way with when each ran, through the
 * service's own client (replayFloor: the commands that overlapped go together, a command waits for
 * those that had settled before it was sent) to a copy of the items in the service's own table (its
 * partition keys behind floorKeyPrefix) that has gone through the same writes, so every condition
 * and item size is the same, and the table and its stream are the service's. Chunks alternate API and floor, so both see
 * the same machine.
 */
export async function measureWarmLatency(options: {
  api: ApiClient;
  state: BenchState;
  operation: Operation;
  iterations: number;
  chunk: number;
  /** The floor's key space in the service's table (floorKeyPrefix), where the service's items were copied. */
  floorKeyPrefix: string;
  targetRatio: number;
  warmup: number;
}): Promise<LatencyRow> {
  const { api, state, operation } = options;
  const apiSamples: number[] = [];
  const floorSamples: number[] = [];
  const total = options.warmup + options.iterations;
  for (let start = 0; start < total; start += options.chunk) {
    const floors: FloorReplay[] = [];
    for (let iteration = start; iteration < Math.min(total, start + options.chunk); iteration += 1) {
      const spec = operation.request(iteration, state);
      const began = performance.now();
      const { commands } = await sendRecorded(api, operation, spec, state);
      apiSamples.push(performance.now() - began);
      floors.push(prepareFloor(commands, options.floorKeyPrefix, began));
    }
    for (const floor of floors) floorSamples.push(await timeFloorReplay(floor));
  }
  // The first requests of an operation run code V8 has not optimized yet, on both sides: not counted.
  const apiSummary = summarize(apiSamples.slice(options.warmup));
  const floorSummary = summarize(floorSamples.slice(options.warmup));
  const p50Ratio = ratio(apiSummary.p50Ms, floorSummary.p50Ms);
  return {
    operation: operation.name,
    label: operation.label,
    api: roundSummary(apiSummary),
    floor: roundSummary(floorSummary),
    p50Ratio: round(p50Ratio, 3),
    p99Ratio: round(ratio(apiSummary.p99Ms, floorSummary.p99Ms), 3),
    isWithinTarget: p50Ratio <= options.targetRatio,
    isBelowFloor: isBelowFloor(apiSummary.p50Ms, floorSummary.p50Ms),
  };
}

export function roundSummary(summary: LatencySummary): LatencySummary {
  return {
    count: summary.count,
    p50Ms: round(summary.p50Ms),
    p99Ms: round(summary.p99Ms),
    meanMs: round(summary.meanMs),
  };
}
