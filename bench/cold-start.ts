import { runNodeProcess } from '../local/run-node-process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Metafile } from 'esbuild';
import { lambdaNodeOptions } from '../lib/bundling';
import type { Route } from '../shared/base/route-types';
import { routes } from '../shared/routes';
import { buildBundle, bytesByPackage } from './build-bundle';
import { median, ratio, round } from './stats';

export const floorEntry = 'bench/floor-handler.ts';

/** How close to the init target (either side) a function's first median must be for it to get more pairs. */
const nearTarget = 0.05;
/** Those functions' further pairs, as a multiple of the rounds. */
const extraRunsFactor = 2;

export interface ColdStartRow {
  name: string;
  entry: string;
  bundleBytes: number;
  /** Bundle bytes above the floor's. */
  overFloorBytes: number;
  /**
   * Bytes of the data files beside the bundle (each type's standard catalog), which the import does
   * not read: a request reads one type's file the first time it names that type.
   */
  besideBytes: number;
  initMedianMs: number;
  /** Median of the floor imports paired with this function's. */
  pairedFloorMedianMs: number;
  /** Median of the paired ratios (function import / the floor import just before it). */
  initRatio: number;
  /** Paired imports measured: the rounds, and twice as many more where the first median was near the target. */
  pairs: number;
  isInitWithinTarget: boolean;
  isBundleWithinTarget: boolean;
  /** The largest contributors to the bundle, for finding what to cut. */
  largestPackages: string[];
}

export interface ColdStartReport {
  runs: number;
  /** A function whose first median lands `within` this of the init target is judged on `runs` pairs. */
  nearTarget: { within: number; runs: number };
  floor: { bundleBytes: number; initMedianMs: number };
  /** Functions of the route table: the rows are all of them, or those --functions (or a quick run) named. */
  routeCount: number;
  targets: { initRatio: number; bundleOverFloorBytes: number };
  rows: ColdStartRow[];
}

/** The bytes of a build's outputs other than the bundle and its source map. */
function besideBytesOf(metafile: Metafile): number {
  return Object.entries(metafile.outputs)
    .filter(([file]) => !file.endsWith('.mjs') && !file.endsWith('.map'))
    .reduce((sum, [, output]) => sum + output.bytes, 0);
}

/**
 * One cold start as Lambda's init phase sees it: a fresh Node process imports the bundle (which
 * builds the handler at module load). The clock runs inside the child, around the import only,
 * so Node's own start-up, equal for every function, stays out.
 */
async function timeImport(file: string, environment: NodeJS.ProcessEnv): Promise<number> {
  const script = [
    'const started = performance.now();',
    'const loaded = await import(process.env.BENCH_MODULE_URL);',
    "if (typeof loaded.handler !== 'function') { console.error('no handler export'); process.exit(3); }",
    'process.stdout.write(String(performance.now() - started));',
    'process.exit(0);',
  ].join('\n');
  const { code, stdout, stderr } = await runNodeProcess(
    [...lambdaNodeOptions.split(' '), '--input-type=module', '-e', script],
    {
      env: { ...environment, BENCH_MODULE_URL: pathToFileURL(file).href },
      cwd: path.dirname(file),
    },
  );
  const value = Number(stdout);
  if (code !== 0 || !Number.isFinite(value))
    throw new Error(`cold start of ${file} failed (${code}): ${stderr.slice(0, 2000)}`);
  return value;
}

/**
 * Builds every route's bundle and the floor's exactly as the stack does, then times `runs`
 * fresh imports of each, each paired with a floor import made just before it.
 */
export async function measureColdStarts(options: {
  outDir: string;
  runs: number;
  environment: NodeJS.ProcessEnv;
  log: (line: string) => void;
  /** Only these functions (route names); every route's when absent. */
  functions?: ReadonlySet<string>;
}): Promise<ColdStartReport> {
  const measured = options.functions ? routes.filter((route) => options.functions?.has(route.name)) : routes;
  if (options.functions && measured.length !== options.functions.size)
    throw new Error(`unknown functions in --functions; known: ${routes.map((route) => route.name).join(', ')}`);
  const targets = { initRatio: 1.15, bundleOverFloorBytes: 100 * 1024 };
  const bundles = [
    { name: 'floor', entry: floorEntry, route: undefined as Route | undefined },
    ...measured.map((route) => ({ name: route.name, entry: route.entry, route: route as Route | undefined })),
  ];
  const built = [];
  for (const bundle of bundles) {
    const outDir = path.join(options.outDir, bundle.name);
    mkdirSync(outDir, { recursive: true });
    // As production ships them (no test-account controls); the controls' own rows exist only with them.
    const sandboxControls = bundle.route?.sandbox === true;
    built.push({ ...bundle, ...(await buildBundle(bundle.entry, outDir, bundle.route, sandboxControls)) });
  }
  options.log(
    `cold start: built ${built.length} bundles; timing ${options.runs} imports of each, each right after one of the floor`,
  );
  const floorBundle = built[0];
  if (!floorBundle) throw new Error('no floor bundle');
  // Paired samples: the machine's load drifts (other processes share its cores), so each import
  // of a function is compared with an import of the floor made just before it.
  const samples = new Map<string, { ms: number; floorMs: number }[]>(built.map((bundle) => [bundle.name, []]));
  const floorSamples: number[] = [];
  /** `runs` rounds over the bundles, each import of one right after an import of the floor. */
  const timeRounds = async (runs: number, bundles: readonly { name: string; file: string }[]): Promise<void> => {
    for (let run = 0; run < runs; run += 1) {
      for (const bundle of bundles) {
        const floorMs = await timeImport(floorBundle.file, options.environment);
        const ms = await timeImport(bundle.file, options.environment);
        floorSamples.push(floorMs);
        samples.get(bundle.name)?.push({ ms, floorMs });
      }
    }
  };
  await timeRounds(options.runs, built.slice(1));
  const pairedRatio = (name: string): number =>
    median((samples.get(name) ?? []).map((pair) => ratio(pair.ms, pair.floorMs)));
  // A function whose median lands near the target, either side, gets twice the rounds again, and its
  // ratio is the median of all its pairs: one function's median of 21 pairs is precise to about
  // ±0.03 on this machine (three copies of one bundle measured 1.07x, 1.12x and 1.15x in one run), so
  // near the line a single run's rounds decide by noise.
  const close = built.slice(1).filter((bundle) => Math.abs(pairedRatio(bundle.name) - targets.initRatio) <= nearTarget);
  const extraRuns = options.runs * extraRunsFactor;
  if (close.length > 0) {
    options.log(
      `cold start: ${close.length} functions within ${nearTarget} of the ${targets.initRatio}x target; ${extraRuns} more imports of each`,
    );
    await timeRounds(extraRuns, close);
  }
  const floorInit = median(floorSamples);
  const rows = built.slice(1).map((bundle): ColdStartRow => {
    const pairs = samples.get(bundle.name) ?? [];
    const initMedianMs = median(pairs.map((pair) => pair.ms));
    const initRatio = median(pairs.map((pair) => ratio(pair.ms, pair.floorMs)));
    const overFloorBytes = bundle.bytes - floorBundle.bytes;
    return {
      name: bundle.name,
      entry: bundle.entry,
      bundleBytes: bundle.bytes,
      overFloorBytes,
      besideBytes: besideBytesOf(bundle.metafile),
      initMedianMs: round(initMedianMs, 2),
      pairedFloorMedianMs: round(median(pairs.map((pair) => pair.floorMs)), 2),
      initRatio: round(initRatio, 3),
      pairs: pairs.length,
      isInitWithinTarget: initRatio <= targets.initRatio,
      isBundleWithinTarget: overFloorBytes <= targets.bundleOverFloorBytes,
      largestPackages: bytesByPackage(bundle.metafile)
        .slice(0, 4)
        .map((entry) => `${entry.name} ${Math.round(entry.bytes / 1024)} KB`),
    };
  });
  return {
    runs: options.runs,
    nearTarget: { within: nearTarget, runs: options.runs + extraRuns },
    floor: { bundleBytes: floorBundle.bytes, initMedianMs: round(floorInit, 2) },
    routeCount: routes.length,
    targets,
    rows,
  };
}
