import type { BenchReport } from './run-bench';
import { markdownTable, textTable, yesNo } from './text-table';

const kib = (bytes: number): number => Math.round(bytes / 102.4) / 10;

/** The report as text tables, each figure beside its floor and the ratio. */
export function printReport(report: BenchReport, format: 'text' | 'markdown' = 'text'): string {
  const table = format === 'text' ? textTable : markdownTable;
  const { machine } = report;
  const parts: string[] = [
    `Benchmark (${report.mode}) on ${machine.cpus} cores (${machine.cpuModel}), ${machine.memoryGiB} GiB, Node ${machine.node}, ${report.durationSeconds} s`,
  ];
  const cold = report.coldStart;
  if (cold) {
    parts.push(
      `\nCold start: bundle size and init (import + handler build in a fresh process; median of ${cold.runs}, each paired with a floor import just before it; ${cold.nearTarget.runs} where the first median was within ${cold.nearTarget.within} of the target)`,
      `floor (DynamoDBDocumentClient + one GetItem): ${kib(cold.floor.bundleBytes)} KiB, ${cold.floor.initMedianMs} ms; ${cold.rows.length} of ${cold.routeCount} functions${cold.rows.length < cold.routeCount ? ' (`--sections=cold` without --quick or --functions times all)' : ''}`,
      `targets: init <= ${cold.targets.initRatio}x floor, bundle <= floor + ${kib(cold.targets.bundleOverFloorBytes)} KiB (catalogs: the standard catalog files beside the bundle, one read on a type's first request)`,
      table(
        [
          'function',
          'bundle KiB',
          '+floor KiB',
          'catalogs KiB',
          'init ms',
          'floor ms',
          'x floor',
          'pairs',
          'init ok',
          'size ok',
        ],
        cold.rows.map((row) => [
          row.name,
          kib(row.bundleBytes),
          kib(row.overFloorBytes),
          kib(row.besideBytes),
          row.initMedianMs,
          row.pairedFloorMedianMs,
          row.initRatio,
          row.pairs,
          yesNo(row.isInitWithinTarget),
          yesNo(row.isBundleWithinTarget),
        ]),
      ),
    );
  }
  if (report.costs) {
    parts.push(
      '\nCost per operation: DynamoDB calls (SDK middleware) and consumed capacity units (ReturnConsumedCapacity)',
      table(
        ['operation', 'calls', 'by command', 'capacity', 'budget', 'within'],
        report.costs.map((row) => [
          row.operation,
          row.totalCalls,
          describeCalls(row.calls),
          row.capacityUnits,
          describeCalls(row.budget),
          yesNo(row.verdict.isWithinBudget),
        ]),
      ),
    );
  }
  if (report.warmLatency) {
    parts.push(
      `\nWarm latency through the local gateway vs its floor: the same DynamoDB commands, in their recorded overlap, through the service's client (ms; target p50 <= ${report.targets.warmP50Ratio}x; an API p50 below the floor's fails the run)`,
      table(
        ['operation', 'n', 'api p50', 'floor p50', 'p50 x', 'api p99', 'floor p99', 'p99 x', 'ok'],
        report.warmLatency.map((row) => [
          row.operation,
          row.api.count,
          row.api.p50Ms,
          row.floor.p50Ms,
          row.p50Ratio,
          row.api.p99Ms,
          row.floor.p99Ms,
          row.p99Ratio,
          row.isBelowFloor ? 'BELOW FLOOR' : yesNo(row.isWithinTarget),
        ]),
      ),
    );
    if (report.httpHop) {
      parts.push(
        `the loopback HTTP round trip alone (same client, a server that answers at once): p50 ${report.httpHop.p50Ms} ms, p99 ${report.httpHop.p99Ms} ms`,
      );
    }
  }
  const scale = report.scale;
  if (scale) {
    parts.push(
      `\nScale: one account growing (ms, p50/p99; target: API p50 within ${scale.flatness}x from the smallest to the largest)`,
      table(
        ['companies', 'load s', 'list p50', 'floor', 'x', 'list p99', 'batch p50', 'floor', 'x', 'batch p99'],
        scale.levels.map((level) => [
          level.companies,
          level.loadSeconds,
          level.listPage.api.p50Ms,
          level.listPage.floor.p50Ms,
          level.listPage.p50Ratio,
          level.listPage.api.p99Ms,
          level.batchRead.api.p50Ms,
          level.batchRead.floor.p50Ms,
          level.batchRead.p50Ratio,
          level.batchRead.api.p99Ms,
        ]),
      ),
      `list page growth ${scale.listPageGrowth}x (flat: ${yesNo(scale.isListPageFlat)}; the floor's own growth ${scale.listPageFloorGrowth}x), ` +
        `batch read growth ${scale.batchReadGrowth}x (flat: ${yesNo(scale.isBatchReadFlat)}; the floor's ${scale.batchReadFloorGrowth}x)`,
    );
  }
  const search = report.search;
  if (search) {
    parts.push(
      '\nSearch: one account growing (ms; floors of the same run: a company read for eqDomain, every company read by the list Query, paginated, for the others)',
      table(
        [
          'companies',
          'case',
          'calls',
          'by command',
          'capacity',
          'total',
          '503s',
          'p50',
          'p99',
          'floor p50',
          'x floor',
          'floor calls',
          'floor capacity',
          'target',
          'met',
        ],
        search.levels.flatMap((level) =>
          level.cases.map((entry) => {
            const isSelective = entry.case === 'eqDomain';
            return [
              level.companies,
              entry.case,
              entry.totalCalls,
              describeCalls(entry.calls),
              entry.capacityUnits,
              entry.total,
              entry.failures,
              entry.latency.p50Ms,
              entry.latency.p99Ms,
              isSelective ? level.companyRead.p50Ms : level.fullQueryFloor.latency.p50Ms,
              entry.p50Ratio,
              isSelective ? 1 : level.fullQueryFloor.queries,
              isSelective ? Number.NaN : level.fullQueryFloor.capacityUnits,
              entry.target,
              yesNo(entry.isMet),
            ];
          }),
        ),
      ),
      `p50 growth from ${search.levels[0]?.companies} to ${search.levels.at(-1)?.companies}: ${Object.entries(
        search.growth,
      )
        .map(([name, value]) => `${name} ${value}x`)
        .join(', ')}; ` +
        `slowest p99 at the largest size ${search.maxLatencyMs} ms (Lambda timeout ${search.lambdaTimeoutMs} ms); max RSS ${Math.max(...search.levels.map((level) => level.maxRssMiB))} MiB`,
    );
  }
  const contactSearch = report.contactSearch;
  if (contactSearch) {
    parts.push(
      "\nContact search on the ordered index (ms; floor: the same DynamoDB calls the search sent, in their recorded overlap, through the service's client; a p50 below the floor's fails the run)",
      table(
        ['contacts', 'case', 'calls', 'by command', 'capacity', 'total', 'expected', 'p50', 'p99', 'floor p50'],
        contactSearch.levels.flatMap((level) =>
          level.cases.map((entry) => [
            level.contacts,
            entry.case,
            entry.totalCalls,
            describeCalls(entry.calls),
            entry.capacityUnits,
            entry.total,
            entry.expectedTotal,
            entry.latency.p50Ms,
            entry.latency.p99Ms,
            entry.floor.p50Ms,
          ]),
        ),
      ),
      `growth from ${contactSearch.levels[0]?.contacts} to ${contactSearch.levels.at(-1)?.contacts} contacts (target: capacity ≤ 2x, p50 ≤ 3x or ≤ 1.3x the floor's growth, exact totals): ` +
        contactSearch.growth
          .map(
            (entry) =>
              `${entry.case} capacity ${entry.capacity}x, p50 ${entry.p50}x (floor ${entry.floorP50}x), met: ${yesNo(entry.isMet)}`,
          )
          .join('; '),
    );
  }
  const memberships = report.lists?.memberships;
  if (memberships) {
    parts.push(
      `\nList membership pages of 100 (a MANUAL list; ms; floor: the page's DynamoDB calls in their recorded overlap through the service's client; target: the same calls at every size, p50 <= ${memberships.targetRatio}x the floor)`,
      table(
        ['members', 'load s', 'case', 'calls', 'by command', 'capacity', 'p50', 'floor p50', 'x', 'p99', 'ok'],
        memberships.levels.flatMap((level) =>
          level.cases.map((entry) => [
            level.members,
            level.loadSeconds,
            entry.case,
            entry.totalCalls,
            describeCalls(entry.calls),
            entry.capacityUnits,
            entry.api.p50Ms,
            entry.floor.p50Ms,
            entry.p50Ratio,
            entry.api.p99Ms,
            entry.isBelowFloor ? 'BELOW FLOOR' : yesNo(entry.isWithinTarget),
          ]),
        ),
      ),
      `calls the same at every size: ${yesNo(memberships.isCallsFlat)}`,
    );
  }
  const evaluation = report.lists?.evaluation;
  if (evaluation) {
    parts.push(
      `\nFirst evaluation of a DYNAMIC list over ${evaluation.contacts} contacts (loaded in ${evaluation.loadSeconds} s; ${evaluation.matched} match): COMPLETE after ${evaluation.seconds} s, size ${evaluation.size}; ${evaluation.readUnits} read units, ${evaluation.writeUnits} write units (the create's calls included)`,
      table(
        ['command', 'calls', 'capacity', 'items', 'keys'],
        Object.entries(evaluation.byCommand).map(([name, tally]) => [
          name,
          tally.calls,
          tally.capacityUnits,
          tally.items,
          tally.keys ?? '',
        ]),
      ),
    );
  }
  const fairness = report.fairness;
  if (fairness) {
    parts.push(
      `\nSearch fairness: another account's company read (ms) while one account runs each search back to back from one client, same process (${fairness.companies} companies with ${fairness.valueLength}-character values, ${fairness.secondsPerCase} s each; target read p99 < ${fairness.targetP99Ms} ms)`,
      table(
        [
          'search running',
          'reads',
          'reads not 200',
          'read p50',
          'read p99',
          'read max',
          'loop delay p99',
          'loop delay max',
          'searches',
          'search p50',
          'search p99',
          'not 200',
          'met',
        ],
        fairness.cases.map((entry) => [
          entry.attack,
          entry.reads.count,
          entry.reads.non200,
          entry.reads.p50Ms,
          entry.reads.p99Ms,
          entry.reads.maxMs,
          entry.eventLoopDelay.p99Ms,
          entry.eventLoopDelay.maxMs,
          entry.searches.count,
          entry.searches.latency.p50Ms,
          entry.searches.latency.p99Ms,
          entry.searches.non200,
          yesNo(entry.isMet),
        ]),
      ),
    );
  }
  const throughput = report.throughput;
  if (throughput) {
    parts.push(
      `\nThroughput: GET company, ${throughput.connections} connections, ${throughput.durationSeconds} s`,
      table(
        ['', 'req/s', 'p50 ms', 'p99 ms', 'failures'],
        [
          [
            'API (autocannon -> gateway)',
            throughput.api.requestsPerSecond,
            throughput.api.p50Ms,
            throughput.api.p99Ms,
            throughput.api.failures,
          ],
          ['floor (GetItem, same concurrency)', throughput.floor.requestsPerSecond, Number.NaN, Number.NaN, 0],
        ],
      ),
      `ratio ${throughput.ratio}x of the floor`,
    );
  }
  const webhooks = report.webhooks;
  if (webhooks) {
    const across = webhooks.acrossAccounts;
    parts.push(
      `\nWebhooks: ${webhooks.writes} company creates from ${webhooks.connections} clients, local runtime (stream poll, in-process queue, receiver on 127.0.0.1)`,
      table(
        [
          'events delivered',
          'events/s',
          'commit->receiver p50 ms',
          'p99 ms',
          'create p50 off',
          'create p50 on',
          'x',
          'create p99 off',
          'create p99 on',
        ],
        [
          [
            webhooks.eventsDelivered,
            webhooks.eventsPerSecond,
            webhooks.commitToReceiver.p50Ms,
            webhooks.commitToReceiver.p99Ms,
            webhooks.createLatencyOff.p50Ms,
            webhooks.createLatencyOn.p50Ms,
            webhooks.warmP50Ratio,
            webhooks.createLatencyOff.p99Ms,
            webhooks.createLatencyOn.p99Ms,
          ],
        ],
      ),
      `The same ${webhooks.writes} creates over ${across.accounts} accounts of the one app (they share its maxConcurrentRequests)`,
      table(
        ['events delivered', 'events/s', 'commit->receiver p50 ms', 'p99 ms'],
        [
          [
            across.eventsDelivered,
            across.eventsPerSecond,
            across.commitToReceiver.p50Ms,
            across.commitToReceiver.p99Ms,
          ],
        ],
      ),
    );
  }
  return parts.join(format === 'text' ? '\n' : '\n\n');
}

function describeCalls(calls: Readonly<Record<string, number>>): string {
  const entries = Object.entries(calls);
  return entries.length === 0
    ? 'none'
    : entries.map(([name, count]) => `${count} ${name.replace(/Command$/, '')}`).join(', ');
}

const belowFloor = (what: string, apiMs: number, floorMs: number): string =>
  `${what}: API p50 ${apiMs} ms is below its floor ${floorMs} ms (the floor does not measure the same DynamoDB work)`;

/**
 * What fails the run: an operation over its DynamoDB budget, and any figure that beats its floor
 * (a floor is the same DynamoDB calls in the same overlap through the same client, without the
 * service's own work: a figure below it means the floor is wrong, not that the service is fast).
 */
export function failuresOf(report: BenchReport): string[] {
  return [
    ...(report.costs ?? [])
      .filter((row) => !row.verdict.isWithinBudget)
      .map((row) => `${row.operation}: over budget: ${row.verdict.excess.join('; ')}`),
    ...(report.warmLatency ?? [])
      .filter((row) => row.isBelowFloor)
      .map((row) => belowFloor(row.operation, row.api.p50Ms, row.floor.p50Ms)),
    ...(report.scale?.levels ?? []).flatMap((level) =>
      (['listPage', 'batchRead'] as const)
        .filter((name) => level[name].isBelowFloor)
        .map((name) =>
          belowFloor(`scale ${name} at ${level.companies}`, level[name].api.p50Ms, level[name].floor.p50Ms),
        ),
    ),
    ...(report.contactSearch?.levels ?? []).flatMap((level) =>
      level.cases
        .filter((entry) => entry.isBelowFloor)
        .map((entry) =>
          belowFloor(`contact search ${entry.case} at ${level.contacts}`, entry.latency.p50Ms, entry.floor.p50Ms),
        ),
    ),
    ...(report.lists?.memberships?.levels ?? []).flatMap((level) =>
      level.cases
        .filter((entry) => entry.isBelowFloor)
        .map((entry) => belowFloor(`list ${entry.case} page at ${level.members}`, entry.api.p50Ms, entry.floor.p50Ms)),
    ),
    ...(report.lists?.memberships && !report.lists.memberships.isCallsFlat
      ? ['list membership pages: the calls grow with the list']
      : []),
    ...(report.lists?.evaluation && report.lists.evaluation.size !== report.lists.evaluation.matched
      ? [
          `list evaluation: size ${report.lists.evaluation.size}, but ${report.lists.evaluation.matched} contacts match its filter`,
        ]
      : []),
    ...(report.throughput?.isAboveFloor
      ? [
          `throughput: API ${report.throughput.api.requestsPerSecond} req/s is above its floor ${report.throughput.floor.requestsPerSecond} (the floor does not measure the same DynamoDB work)`,
        ]
      : []),
  ];
}
