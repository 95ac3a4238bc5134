import { createHash } from 'node:crypto';
import {
  copyFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { buildSync, formatMessagesSync, version as esbuildVersion, type BuildOptions, type Message } from 'esbuild';

/**
 * esbuild's buildSync through a cache of earlier builds, so a synth bundles again only the
 * functions whose code changed: `npx cdk synth` followed by `cdk deploy` (which synthesizes again)
 * or `npm run synth:sam`, and the test run's two synths, bundle each function once. A build is
 * kept under the hash of everything it depends on besides its input files (esbuild's version, the
 * options, where the output sits relative to the project, package.json, package-lock.json,
 * tsconfig.json) with the content hash of every input file esbuild read (its metafile: the
 * project's files, the packages', the generated validators). It is reused only when each of those
 * files still has that content, so it is byte for byte what esbuild would write now; warnings are
 * kept with it and shown again.
 */
export interface CachedBuildOptions extends BuildOptions {
  absWorkingDir: string;
  outfile: string;
}

interface CachedBuild {
  /** Input file (relative to absWorkingDir) -> SHA-256 of its content when it was built. */
  inputs: Record<string, string>;
  warnings: Message[];
  /** The files the build wrote into the output directory. */
  files: string[];
}

const recordFile = 'build.json';
/** A synth reads the same package files for every function: each is hashed again only when its size or mtime moved. */
const contentHashes = new Map<string, { size: number; mtimeMs: number; hash: string }>();

function contentHash(file: string): string | undefined {
  const stats = statSync(file, { throwIfNoEntry: false });
  if (!stats?.isFile()) return undefined;
  const known = contentHashes.get(file);
  if (known?.size === stats.size && known.mtimeMs === stats.mtimeMs) return known.hash;
  const hash = createHash('sha256').update(readFileSync(file)).digest('hex');
  contentHashes.set(file, { size: stats.size, mtimeMs: stats.mtimeMs, hash });
  return hash;
}

function cacheKey(options: CachedBuildOptions): string {
  const { absWorkingDir, outfile, ...rest } = options;
  // The source map names each input relative to the output: what matters of outfile is how it sits relative to the project.
  const hash = createHash('sha256').update(
    JSON.stringify({
      esbuildVersion,
      absWorkingDir,
      options: rest,
      outfile: path
        .relative(absWorkingDir, outfile)
        .split(path.sep)
        .map((part) => (part === '..' ? part : '*')),
    }),
  );
  for (const file of ['package.json', 'package-lock.json', 'tsconfig.json'])
    hash.update(`\0${file}\0${contentHash(path.join(absWorkingDir, file)) ?? ''}`);
  return hash.digest('hex').slice(0, 32);
}

function readRecord(directory: string): CachedBuild | undefined {
  try {
    return JSON.parse(readFileSync(path.join(directory, recordFile), 'utf8')) as CachedBuild;
  } catch {
    return undefined;
  }
}

function isCurrent(record: CachedBuild, absWorkingDir: string): boolean {
  const inputs = Object.entries(record.inputs);
  return (
    inputs.length > 0 && inputs.every(([file, hash]) => (contentHash(path.resolve(absWorkingDir, file)) ?? '') === hash)
  );
}

function showWarnings(warnings: Message[]): void {
  if (warnings.length > 0) process.stderr.write(formatMessagesSync(warnings, { kind: 'warning' }).join(''));
}

/** Builds (or takes from cacheDir) one bundle into the empty directory of options.outfile. */
export function cachedBuild(options: CachedBuildOptions, cacheDir: string): void {
  const outputDir = path.dirname(options.outfile);
  const entryDir = path.join(cacheDir, cacheKey(options));
  const cached = readRecord(entryDir);
  if (cached && isCurrent(cached, options.absWorkingDir)) {
    try {
      for (const file of cached.files) copyFileSync(path.join(entryDir, file), path.join(outputDir, file));
      showWarnings(cached.warnings);
      return;
    } catch {
      // Replaced or removed by another synth meanwhile: build.
    }
  }
  const result = buildSync({ ...options, metafile: true });
  const record: CachedBuild = {
    inputs: Object.fromEntries(
      Object.keys(result.metafile.inputs).map((file) => [
        file,
        contentHash(path.resolve(options.absWorkingDir, file)) ?? '',
      ]),
    ),
    warnings: result.warnings,
    files: readdirSync(outputDir),
  };
  // Best effort: a build that cannot be kept is still a build. Renamed into place whole, so no reader sees half of one.
  const scratch = `${entryDir}.${process.pid}.tmp`;
  try {
    mkdirSync(scratch, { recursive: true });
    for (const file of record.files) copyFileSync(path.join(outputDir, file), path.join(scratch, file));
    writeFileSync(path.join(scratch, recordFile), JSON.stringify(record));
    rmSync(entryDir, { recursive: true, force: true });
    renameSync(scratch, entryDir);
  } catch {
    rmSync(scratch, { recursive: true, force: true });
  }
}
