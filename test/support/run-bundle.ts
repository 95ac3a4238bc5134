import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface BundleRun<R> {
  /** One per event: what the handler returned, or the error it threw. */
  results: { response?: R; error?: string }[];
  /** What the function wrote to stdout: its log lines (the structured logger writes there). */
  stdout: string;
  /** Node's own warnings and anything written with console.error. */
  stderr: string;
}

/**
 * Invokes a bundle from the cloud assembly in a fresh Node process, as the Lambda runtime
 * loads it (test/support/invoke-bundle.mjs), with exactly the given environment.
 */
export function runBundle<R>(options: { taskRoot: string; handler: string; environment: NodeJS.ProcessEnv; events: unknown[] }): Promise<BundleRun<R>> {
  const workDir = mkdtempSync(path.join(tmpdir(), 'bundle-run-'));
  const eventsFile = path.join(workDir, 'events.json');
  const resultsFile = path.join(workDir, 'results.json');
  writeFileSync(eventsFile, JSON.stringify(options.events));
  return new Promise<BundleRun<R>>((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(__dirname, 'invoke-bundle.mjs'), options.taskRoot, options.handler, eventsFile, resultsFile], {
      cwd: options.taskRoot, env: options.environment, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`bundle ${options.taskRoot} exited with ${code}:\n${stdout}${stderr}`));
      resolve({ results: JSON.parse(readFileSync(resultsFile, 'utf8')) as BundleRun<R>['results'], stdout, stderr });
    });
  }).finally(() => rmSync(workDir, { recursive: true, force: true }));
}
