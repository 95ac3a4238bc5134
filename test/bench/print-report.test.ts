import type { LatencyRow } from '../../bench/api-latency';
import { failuresOf, printReport } from '../../bench/print-report';
import { targets, type BenchReport } from '../../bench/run-bench';
import type { LatencySummary } from '../../bench/stats';

const summary = (p50Ms: number): LatencySummary => ({ count: 10, p50Ms, p99Ms: p50Ms * 2, meanMs: p50Ms });

/** A warm row as measureWarmLatency reports it. */
const warmRow = (operation: string, apiMs: number, floorMs: number): LatencyRow => ({
  operation,
  label: operation,
  api: summary(apiMs),
  floor: summary(floorMs),
  p50Ratio: apiMs / floorMs,
  p99Ratio: apiMs / floorMs,
  isWithinTarget: apiMs / floorMs <= targets.warmP50Ratio,
  isBelowFloor: apiMs < floorMs,
});

const report = (warmLatency: LatencyRow[]): BenchReport => ({
  generatedAt: '2026-01-01T00:00:00.000Z',
  mode: 'quick',
  machine: { cpus: 2, cpuModel: 'test', memoryGiB: 1, node: 'v20', platform: 'linux-x64' },
  durationSeconds: 1,
  sectionSeconds: {},
  targets,
  warmLatency,
});

describe('the bench report', () => {
  it('fails a warm row whose API median is below its floor, and only that row', () => {
    const measured = report([warmRow('readCompany', 4.5, 7.7), warmRow('createRecord', 16.8, 12.1)]);

    expect(failuresOf(measured)).toEqual([
      'readCompany: API p50 4.5 ms is below its floor 7.7 ms (the floor does not measure the same DynamoDB work)',
    ]);
  });

  it('marks such a row in its table', () => {
    const table = printReport(report([warmRow('readCompany', 4.5, 7.7)]));

    expect(table).toContain('BELOW FLOOR');
  });
});
