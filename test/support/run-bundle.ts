import { runNodeProcess } from '../../local/run-node-process';
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
export function runBundle<R>(options: {
  taskRoot: string;
  handler: string;
  environment: NodeJS.ProcessEnv;
  events: unknown[];
}): Promise<BundleRun<R>> {
  const workDir = mkdtempSync(path.join(tmpdir(), 'bundle-run-'));
  const eventsFile = path.join(workDir, 'events.json');
  const resultsFile = path.join(workDir, 'results.json');
  writeFileSync(eventsFile, JSON.stringify(options.events));
  return runNodeProcess(
    [path.join(__dirname, 'invoke-bundle.mjs'), options.taskRoot, options.handler, eventsFile, resultsFile],
    {
      cwd: options.taskRoot,
      env: options.environment,
    },
  )
    .then(({ code, stdout, stderr }) => {
      if (code !== 0) throw new Error(`bundle ${options.taskRoot} exited with ${code}:\n${stdout}${stderr}`);
      return { results: JSON.parse(readFileSync(resultsFile, 'utf8')) as BundleRun<R>['results'], stdout, stderr };
    })
    .finally(() => rmSync(workDir, { recursive: true, force: true }));
}
