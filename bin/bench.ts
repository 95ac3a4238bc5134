/**
 * The benchmark: every figure next to its floor, measured in the same run on DynamoDB Local.
 *   npm run bench                       full run (its cold section alone about 15 minutes on 2 cores)
 *   npm run bench -- --quick            smaller counts, to iterate (its cold section: 5 functions only)
 *   npm run bench -- --sections=costs,warm
 *   npm run bench -- --sections=search --search-levels=100000 --search-requests=3
 *   npm run bench -- --sections=search --search-floor-max=10000   (no full-Query floor above 10k companies)
 *   npm run bench -- --sections=warm --operations=readCompany,readCompanyLimited   (only these rows of costs and warm)
 *   npm run bench -- --sections=cold --functions=createObject,getOwner   (only these functions' cold starts)
 *   npm run bench -- --sections=fairness          (another account's reads while one runs the costliest searches)
 *   npm run bench -- --sections=contacts --search-levels=1000,1000000   (the contact sync and default pages at 1M: opt-in, outside npm test)
 *   npm run bench -- --sections=lists --list-levels=1000,100000 --list-contacts=100000   (membership pages, a DYNAMIC list's first evaluation)
 * Prints tables and writes reports/bench.json (and the tables in Markdown, reports/bench.md).
 * Exits 1 when an operation makes more DynamoDB calls than its budget allows, or a figure beats its floor.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureTable, startDynamoDbLocal } from '../local/dynamodb-local';
import { applyLocalEnvironment } from '../local/local-env';
import type { BenchOptions, BenchReport } from '../bench/run-bench';
import { sectionNames, type SectionName } from '../bench/section-names';

const allSections: readonly SectionName[] = sectionNames;

/** The comma-separated names of an argument such as `--operations=a,b`. */
function namesAfter(argument: string, flag: string): Set<string> {
  return new Set(
    argument
      .slice(flag.length)
      .split(',')
      .filter((name) => name !== ''),
  );
}

function parseOptions(argv: readonly string[]): {
  isQuick: boolean;
  sections: Set<SectionName>;
  reportFile: string;
  searchLevels?: number[];
  searchRequests?: number;
  searchFloorMax?: number;
  listLevels?: number[];
  listContacts?: number;
  operations?: Set<string>;
  functions?: Set<string>;
} {
  let isQuick = false;
  let operations: Set<string> | undefined;
  let functions: Set<string> | undefined;
  let searchLevels: number[] | undefined;
  let searchRequests: number | undefined;
  let searchFloorMax: number | undefined;
  let listLevels: number[] | undefined;
  let listContacts: number | undefined;
  let sections = new Set(allSections);
  let reportFile = path.resolve(__dirname, '..', 'reports', 'bench.json');
  for (const argument of argv) {
    if (argument === '--quick') isQuick = true;
    else if (argument.startsWith('--sections=')) {
      const names = argument
        .slice('--sections='.length)
        .split(',')
        .filter((name) => name !== '');
      const unknown = names.filter((name) => !allSections.includes(name as SectionName));
      if (unknown.length > 0)
        throw new Error(`unknown sections ${unknown.join(', ')}; known: ${allSections.join(', ')}`);
      sections = new Set(names as SectionName[]);
    } else if (argument.startsWith('--report=')) reportFile = path.resolve(argument.slice('--report='.length));
    else if (argument.startsWith('--search-levels='))
      searchLevels = argument
        .slice('--search-levels='.length)
        .split(',')
        .map(Number)
        .filter((level) => Number.isInteger(level) && level > 0);
    else if (argument.startsWith('--search-requests='))
      searchRequests = Number(argument.slice('--search-requests='.length));
    else if (argument.startsWith('--search-floor-max='))
      searchFloorMax = Number(argument.slice('--search-floor-max='.length));
    else if (argument.startsWith('--list-levels='))
      listLevels = argument
        .slice('--list-levels='.length)
        .split(',')
        .map(Number)
        .filter((level) => Number.isInteger(level) && level > 100);
    else if (argument.startsWith('--list-contacts=')) listContacts = Number(argument.slice('--list-contacts='.length));
    else if (argument.startsWith('--operations=')) operations = namesAfter(argument, '--operations=');
    else if (argument.startsWith('--functions=')) functions = namesAfter(argument, '--functions=');
    else
      throw new Error(
        `unknown argument ${argument}; use --quick, --sections=${allSections.join(',')}, --operations=<names>, --functions=<names>, --list-levels=<members>, --list-contacts=<n>, --report=<file>`,
      );
  }
  return {
    isQuick,
    sections,
    reportFile,
    searchLevels,
    searchRequests,
    searchFloorMax,
    listLevels,
    listContacts,
    operations,
    functions,
  };
}

async function main(): Promise<number> {
  const {
    isQuick,
    sections,
    reportFile,
    searchLevels,
    searchRequests,
    searchFloorMax,
    listLevels,
    listContacts,
    operations,
    functions,
  } = parseOptions(process.argv.slice(2));
  const log = (line: string) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}`);
  const stateDir = mkdtempSync(path.join(tmpdir(), 'bench-state-'));
  const dynamo = await startDynamoDbLocal();
  log(`DynamoDB Local (in memory) on ${dynamo.endpoint}`);
  try {
    const tableName = 'hubspot-platform-bench';
    applyLocalEnvironment({
      endpoint: dynamo.endpoint,
      tableName,
      secretsFile: path.join(stateDir, 'secrets.json'),
      logLevel: 'ERROR',
    });
    await ensureTable(dynamo.endpoint, tableName);
    // The service's modules read their configuration when loaded: only now may they load.
    const { runBench, fullOptions, quickOptions } = await import('../bench/run-bench');
    const { printReport, failuresOf } = await import('../bench/print-report');
    const defaults = isQuick ? quickOptions : fullOptions;
    const options: BenchOptions = {
      ...defaults,
      sections,
      searchLevels: searchLevels ?? defaults.searchLevels,
      searchRequests: searchRequests ?? defaults.searchRequests,
      searchFloorMax,
      listLevels: listLevels ?? defaults.listLevels,
      listEvaluationContacts: listContacts ?? defaults.listEvaluationContacts,
      operations,
      functions,
    };
    const report: BenchReport = await runBench(options, {
      endpoint: dynamo.endpoint,
      tableName,
      region: process.env.AWS_REGION ?? 'us-east-1',
      log,
    });
    console.log(printReport(report));
    mkdirSync(path.dirname(reportFile), { recursive: true });
    writeFileSync(reportFile, `${JSON.stringify(report, null, 2)}\n`);
    const markdownFile = `${reportFile.replace(/\.json$/, '')}.md`;
    writeFileSync(markdownFile, `${printReport(report, 'markdown')}\n`);
    log(
      `report written to ${path.relative(process.cwd(), reportFile)} (tables in Markdown: ${path.relative(process.cwd(), markdownFile)})`,
    );
    const failures = failuresOf(report);
    for (const failure of failures) console.error(`FAILED: ${failure}`);
    return failures.length > 0 ? 1 : 0;
  } finally {
    await dynamo.stop();
    rmSync(stateDir, { recursive: true, force: true });
  }
}

main().then(
  (code) => {
    process.exit(code);
  },
  (error: unknown) => {
    console.error(error);
    process.exit(2);
  },
);
