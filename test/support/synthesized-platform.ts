import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stackNamesOf } from '../../lib/platform-stacks';

/**
 * The cloud assembly exactly as `npx cdk synth` makes it: bin/cdk-app.ts run with the context
 * of cdk.json, assets bundled by the local esbuild, the cdk-nag checks on. Bundling every
 * function takes tens of seconds on a busy machine, so the assembly is made once per change
 * of its inputs and shared by the test files (and test runs) through a directory keyed by
 * their hash; a lock directory keeps two workers from synthesizing at once.
 */
export interface SynthesizedPlatform {
  outdir: string;
  stackNames: { data: string; api: string };
  /** The context cdk.json gives the app. */
  context: Record<string, unknown>;
  template(stack: 'data' | 'api'): Record<string, unknown>;
}

const projectRoot = path.resolve(__dirname, '..', '..');
const inputDirectories = ['bin', 'lib', 'shared', 'functions'];
const inputFiles = ['package-lock.json', 'cdk.json', 'tsconfig.json'];
const cacheRoot = path.join(tmpdir(), 'hubspot-slice-synth');
const staleLockMs = 10 * 60 * 1000;

function filesUnder(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

function inputsFingerprint(): string {
  const hash = createHash('sha256');
  const files = [
    ...inputDirectories.flatMap((directory) => filesUnder(path.join(projectRoot, directory))),
    ...inputFiles.map((file) => path.join(projectRoot, file)),
  ].sort();
  for (const file of files) {
    hash.update(path.relative(projectRoot, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex').slice(0, 24);
}

function cdkContext(): Record<string, unknown> {
  const cdkJson = JSON.parse(readFileSync(path.join(projectRoot, 'cdk.json'), 'utf8')) as { context?: Record<string, unknown> };
  return cdkJson.context ?? {};
}

/** Runs the app the way the CDK CLI does: outdir and context through the environment. */
function synthesize(outdir: string): Promise<void> {
  const context = { ...cdkContext(), 'aws:cdk:enable-asset-metadata': true, 'aws:cdk:enable-path-metadata': true };
  const environment: NodeJS.ProcessEnv = { ...process.env, CDK_OUTDIR: outdir, CDK_CONTEXT_JSON: JSON.stringify(context) };
  delete environment.CDK_DEFAULT_ACCOUNT;
  delete environment.CDK_DEFAULT_REGION;
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(projectRoot, 'node_modules', '.bin', 'tsx'), ['bin/cdk-app.ts'], { cwd: projectRoot, env: environment, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    child.stderr.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`cdk app exited with ${code}:\n${output}`))));
  });
}

/** A lock whose holder died (a killed test run) must not block the next run. */
function isAbandoned(lock: string): boolean {
  const ageMs = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
  if (ageMs > staleLockMs) return true;
  const pidFile = path.join(lock, 'pid');
  if (!existsSync(pidFile)) return false;
  try {
    process.kill(Number(readFileSync(pidFile, 'utf8')), 0);
    return false;
  } catch {
    return true;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function ensureAssembly(): Promise<string> {
  mkdirSync(cacheRoot, { recursive: true });
  const fingerprint = inputsFingerprint();
  const outdir = path.join(cacheRoot, fingerprint);
  const lock = `${outdir}.lock`;
  for (;;) {
    if (existsSync(path.join(outdir, 'manifest.json'))) return outdir;
    try {
      mkdirSync(lock);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (isAbandoned(lock)) rmSync(lock, { recursive: true, force: true });
      await sleep(500);
      continue;
    }
    writeFileSync(path.join(lock, 'pid'), String(process.pid));
    try {
      if (!existsSync(path.join(outdir, 'manifest.json'))) {
        const staging = `${outdir}.staging-${process.pid}`;
        rmSync(staging, { recursive: true, force: true });
        await synthesize(staging);
        // Renaming a complete directory into place: readers never see half an assembly.
        renameSync(staging, outdir);
        removeOldAssemblies(fingerprint);
      }
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

/** Assemblies of older inputs are dead weight (each holds every bundle). */
function removeOldAssemblies(current: string): void {
  const dayMs = 24 * 60 * 60 * 1000;
  for (const entry of readdirSync(cacheRoot)) {
    if (entry.startsWith(current)) continue;
    const full = path.join(cacheRoot, entry);
    if (Date.now() - statSync(full).mtimeMs > dayMs) rmSync(full, { recursive: true, force: true });
  }
}

let assembly: Promise<SynthesizedPlatform> | undefined;

export function synthesizedPlatform(): Promise<SynthesizedPlatform> {
  assembly ??= ensureAssembly().then((outdir) => {
    const context = cdkContext();
    const stackNames = stackNamesOf(String(context.stage ?? 'prod'));
    return {
      outdir,
      stackNames,
      context,
      template: (stack: 'data' | 'api') => JSON.parse(readFileSync(path.join(outdir, `${stackNames[stack]}.template.json`), 'utf8')) as Record<string, unknown>,
    };
  });
  return assembly;
}

/** Generous: bundling every function on two shared cores can take a minute or more. */
export const synthesisTimeoutMs = 300_000;
