import { performance } from 'node:perf_hooks';
import { prepareFloor, replayFloor, type RecordedCommand } from './dynamo-recorder';
import { ratio, round } from './stats';

/** The part of autocannon's result this benchmark reads (the package ships no types). */
interface AutocannonResult {
  duration: number;
  '2xx': number;
  non2xx: number;
  errors: number;
  timeouts: number;
  latency: { p50: number; p99: number };
}

type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  headers: Record<string, string>;
  method: string;
  workers?: number;
}) => Promise<AutocannonResult>;

export interface ThroughputReport {
  connections: number;
  durationSeconds: number;
  api: { requestsPerSecond: number; okResponses: number; failures: number; p50Ms: number; p99Ms: number };
  floor: { requestsPerSecond: number; operations: number };
  ratio: number;
  /** More API requests a second than floor operations: impossible for a true floor, so the run fails on it. */
  isAboveFloor: boolean;
}

/**
 * GET company at `connections` concurrent connections through the gateway (autocannon in a worker
 * thread of this process, 127.0.0.1 only), against the floor: as many concurrent loops sending the recorded
 * GetItem through the service's own client (its socket pool and queue) for as long.
 */
export async function measureThroughput(options: {
  baseUrl: string;
  path: string;
  token: string;
  connections: number;
  durationSeconds: number;
  commands: readonly RecordedCommand[];
}): Promise<ThroughputReport> {
  const url = new URL(options.path, options.baseUrl);
  if (url.hostname !== '127.0.0.1') throw new Error(`throughput runs against 127.0.0.1 only, not ${url.hostname}`);
  const autocannon = require('autocannon') as Autocannon;
  const result = await autocannon({
    url: url.href,
    connections: options.connections,
    duration: options.durationSeconds,
    method: 'GET',
    headers: { authorization: `Bearer ${options.token}` },
    // The load generator gets its own thread: a client shares no event loop with the server it measures.
    workers: 1,
  });
  const apiRps = result['2xx'] / result.duration;
  const floor = prepareFloor(options.commands);
  let operations = 0;
  const deadline = performance.now() + options.durationSeconds * 1000;
  const began = performance.now();
  await Promise.all(
    Array.from({ length: options.connections }, async () => {
      while (performance.now() < deadline) {
        await replayFloor(floor);
        operations += 1;
      }
    }),
  );
  const floorRps = operations / ((performance.now() - began) / 1000);
  return {
    connections: options.connections,
    durationSeconds: options.durationSeconds,
    api: {
      requestsPerSecond: round(apiRps, 1),
      okResponses: result['2xx'],
      failures: result.non2xx + result.errors + result.timeouts,
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
    },
    floor: { requestsPerSecond: round(floorRps, 1), operations },
    ratio: round(ratio(apiRps, floorRps), 3),
    isAboveFloor: apiRps > floorRps,
  };
}
