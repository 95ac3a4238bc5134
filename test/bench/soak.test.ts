import { formatSoakReport, runSoak, type SoakReport } from '../../bench/soak';

/**
 * The short soak: the same code path as `npm run soak` (concurrent clients, mixed workload, gateway
 * in its own process), for a few seconds against the suite's DynamoDB Local.
 */
jest.setTimeout(180_000);

const durationMs = Number(process.env.SOAK_SECONDS ?? 8) * 1000;
/**
 * Each client waits for its answer before the next request, so a request's latency is about the
 * clients in flight over the gateway's throughput: at the 8 req/s of a loaded 2-core machine, the
 * p99 of 32 clients reaches the soak's 10 s client timeout; 8 clients stay far inside it and still
 * overlap every kind of write.
 */
const clients = 8;
let report: SoakReport;

beforeAll(async () => {
  report = await runSoak({ durationMs, clients, memorySamples: 9 });
  console.log(`short soak\n${formatSoakReport(report)}`);
});

describe('short soak through the local gateway', () => {
  it('answers every request of the mixed workload with its success status', () => {
    expect({ errors: report.errorCount, examples: report.errors }).toEqual({ errors: 0, examples: [] });
  });

  it('sends every kind of operation of the workload', () => {
    const counts = Object.values(report.byOperation).map((tally) => tally.count);

    expect({ kinds: counts.length, isEveryKindSent: Math.min(...counts) > 0 }).toEqual({
      kinds: 9,
      isEveryKindSent: true,
    });
  });

  it('keeps every invariant: counts match the 2xx answers, domains unique, every created id readable', () => {
    expect(report.invariantViolations).toEqual([]);
  });

  it('does not grow the gateway heap beyond the bound', () => {
    expect(report.memory).toMatchObject({ canCollect: true, isWithinBound: true });
  });
});
