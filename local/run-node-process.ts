import { spawn } from 'node:child_process';

export interface NodeProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs Node with the given arguments in a fresh process and collects its output and exit code. */
export function runNodeProcess(
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<NodeProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
