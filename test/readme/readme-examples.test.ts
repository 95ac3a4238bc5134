import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  commandAt,
  docsInMapOrder,
  runnableShellBlocks,
  shellCommands,
  type ShellBlock,
} from '../support/readme-examples';

/**
 * Pastes the shell examples of README.md and then of every file of docs/ (in the order of the
 * README's map of the docs), in order, into one bash session after a fresh `npm start` (the real
 * bin/local.ts with its own in-memory DynamoDB Local, on free loopback ports), as a new user
 * would, so what one file sets (tokens, variables, shell functions) serves the files after it.
 * Checks every curl's answer: 2xx/3xx, or exactly the status the file names for that command.
 * The convention is in test/support/readme-examples.ts and in docs/testing.md.
 */

const root = path.resolve(__dirname, '..', '..');
const tsx = path.join(root, 'node_modules/tsx/dist/cli.mjs');
const startTimeoutMs = 120_000;
const examplesTimeoutMs = 300_000;

/**
 * Floors for what the test runs, so an example cannot drop out unnoticed (a broken fence, a file
 * left out of the map): the README and the docs it maps hold at least this many runnable blocks
 * and curl calls.
 */
const minimumBlocks = 21;
const minimumCurlCalls = 107;

/** The records `npm start` seeds, as demo.json names them, and the type each one is read by. */
const seededRecords = [
  ['companies', 'companyId'],
  ['contacts', 'contactId'],
  ['deals', 'dealId'],
  ['tickets', 'ticketId'],
] as const;

/** README.md first, then the files of docs/ in the order of the README's map of the docs. */
function exampleFiles(): string[] {
  const mapped = docsInMapOrder(readFileSync(path.join(root, 'README.md'), 'utf8'));
  const present = readdirSync(path.join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`);
  const unmapped = present.filter((file) => !mapped.includes(file));
  const missing = mapped.filter((file) => !present.includes(file));
  if (unmapped.length > 0 || missing.length > 0) {
    throw new Error(
      `the README's map of the docs must list every file of docs/ once: not listed ${JSON.stringify(unmapped)}, no such file ${JSON.stringify(missing)}`,
    );
  }
  return ['README.md', ...mapped];
}

/** The environment of a fresh terminal: nothing of the test run's own DynamoDB or server. */
function freshEnvironment(stateDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  const dropped = new Set([
    'DYNAMODB_ENDPOINT',
    'DYNAMODB_PORT',
    'TABLE_NAME',
    'SECRETS_FILE',
    'SECRETS_JSON',
    'TOKEN_PUBLIC_KEYS',
    'PORT',
    'TEST_STATE_DIR',
  ]);
  for (const [name, value] of Object.entries(process.env)) {
    if (!dropped.has(name) && !name.startsWith('npm_') && !name.startsWith('JEST_')) env[name] = value;
  }
  return { ...env, LOCAL_STATE_DIR: stateDir, LOG_LEVEL: 'ERROR', ...extra };
}

function kill(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

function exited(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

async function stop(child: ChildProcess): Promise<void> {
  kill(child, 'SIGTERM');
  if (!(await exited(child, 15_000))) kill(child, 'SIGKILL');
  // DynamoDB Local's JVM runs in the same process group: make sure nothing of it stays behind.
  kill(child, 'SIGKILL');
  await exited(child, 5_000);
}

/** Starts `npm start`'s code path and resolves once it has seeded the demo and written running.json. */
async function startLocal(stateDir: string): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, [tsx, 'bin/local.ts'], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: freshEnvironment(stateDir, { PORT: '0', DYNAMODB_PORT: '0' }),
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const deadline = Date.now() + startTimeoutMs;
  while (!existsSync(path.join(stateDir, 'running.json'))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop(child);
      throw new Error(`npm start did not come up within ${startTimeoutMs} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { child, output: () => output };
}

/**
 * A curl that records each answer's final status and the script line it was called from. The script
 * runs the examples far faster than anyone pastes them: when an answer says the app's ten-secondly
 * limit is nearly spent (X-HubSpot-RateLimit-Remaining), it waits out the window as a client of
 * HubSpot's limits would, so the examples never meet a 429 a reader pasting them would not.
 */
const prelude = [
  'set -e',
  'curl() {',
  '  local headers status args remaining window code=0',
  '  headers=$(mktemp)',
  '  command curl -D "$headers" "$@" || code=$?',
  '  status=$(sed -n \'s/^HTTP\\/[0-9.]* \\([0-9][0-9][0-9]\\).*/\\1/p\' "$headers" | tail -n 1)',
  "  remaining=$(tr -d '\\r' < \"$headers\" | sed -n 's/^x-hubspot-ratelimit-remaining: *//Ip' | tail -n 1)",
  "  window=$(tr -d '\\r' < \"$headers\" | sed -n 's/^x-hubspot-ratelimit-interval-milliseconds: *//Ip' | tail -n 1)",
  '  rm -f "$headers"',
  '  if [ -n "$remaining" ] && [ "$remaining" -le 5 ]; then sleep $(( ${window:-10000} / 1000 )); fi',
  "  args=\"$*\"; args=${args//$'\\n'/ }; args=${args//$'\\t'/ }",
  '  printf \'%s\\t%s\\t%s\\n\' "${status:-none}" "${BASH_LINENO[0]}" "${args:0:400}" >> "$EXAMPLES_CURL_LOG"',
  '  return $code',
  '}',
  'trap \'echo "example failed: script line $LINENO, exit status $?" >&2\' ERR',
].join('\n');

interface FileBlock {
  /** The Markdown file, relative to the repository: README.md or docs/<topic>.md. */
  file: string;
  block: ShellBlock;
}

interface Placed extends FileBlock {
  /** 1-based script line of the block's first line. */
  scriptLine: number;
}

function buildScript(blocks: FileBlock[]): { script: string; placed: Placed[] } {
  const lines = prelude.split('\n');
  const placed: Placed[] = [];
  for (const { file, block } of blocks) {
    lines.push(`# ${file} line ${block.line}`);
    placed.push({ file, block, scriptLine: lines.length + 1 });
    lines.push(...block.lines);
  }
  lines.push('echo EXAMPLES-DONE');
  return { script: lines.join('\n'), placed };
}

function runBash(scriptFile: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', [scriptFile], { cwd: root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-30_000);
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    const timer = setTimeout(() => {
      output += `\n(killed after ${examplesTimeoutMs} ms)`;
      kill(child, 'SIGKILL');
    }, examplesTimeoutMs);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('README and docs examples', () => {
  it(
    "work when pasted in order (README.md, then docs/ in the map's order) after npm start",
    async () => {
      const blocks = exampleFiles().flatMap((file) =>
        runnableShellBlocks(readFileSync(path.join(root, file), 'utf8')).map((block) => ({ file, block })),
      );
      expect(blocks.length).toBeGreaterThanOrEqual(minimumBlocks);
      const stateDir = mkdtempSync(path.join(tmpdir(), 'readme-examples-'));
      const server = await startLocal(stateDir);
      try {
        const { script, placed } = buildScript(blocks);
        const scriptFile = path.join(stateDir, 'examples.sh');
        const curlLog = path.join(stateDir, 'curl.log');
        writeFileSync(scriptFile, script);
        writeFileSync(curlLog, '');

        const result = await runBash(scriptFile, freshEnvironment(stateDir, { EXAMPLES_CURL_LOG: curlLog }));

        const where = (scriptLine: number) => {
          const at = [...placed].reverse().find((entry) => entry.scriptLine <= scriptLine);
          return at && scriptLine - at.scriptLine < at.block.lines.length
            ? {
                placed: at,
                line: scriptLine - at.scriptLine,
                at: `${at.file} line ${at.block.line + scriptLine - at.scriptLine}`,
              }
            : undefined;
        };
        const failures: string[] = [];
        const calls = readFileSync(curlLog, 'utf8')
          .split('\n')
          .filter((line) => line !== '')
          .map((line) => {
            const [status = '', scriptLine = '', args = ''] = line.split('\t');
            return { status: Number(status), scriptLine: Number(scriptLine), args };
          });
        for (const call of calls) {
          const found = where(call.scriptLine);
          const command = found && commandAt(shellCommands(found.placed.block.lines), found.line);
          const expected = command?.expectedStatus;
          const ok = expected !== undefined ? call.status === expected : call.status >= 200 && call.status < 400;
          if (!ok) {
            failures.push(
              `${found?.at ?? `? (script line ${call.scriptLine})`}: answered ${Number.isNaN(call.status) ? 'nothing' : call.status}` +
                `${expected !== undefined ? `, documented ${expected}` : ''}: curl ${call.args}`,
            );
          }
        }
        for (const entry of placed) {
          const ran = calls.some((call) => where(call.scriptLine)?.placed === entry);
          if (
            entry.block.lines.some((line) => /\bcurl\b/.test(line.replace(/\s#.*$/, ''))) &&
            !ran &&
            result.code === 0
          ) {
            failures.push(
              `${entry.file} line ${entry.block.line}: the block names curl but no curl call of it was recorded`,
            );
          }
        }
        const failedLine = /script line (\d+)/.exec(result.output);
        const failedAt = failedLine ? where(Number(failedLine[1])) : undefined;
        if (result.code !== 0 || !result.output.includes('EXAMPLES-DONE')) {
          failures.push(
            `the examples stopped with exit status ${result.code}${failedAt ? ` at ${failedAt.at}` : ''}\n` +
              `--- shell output (tail) ---\n${result.output.slice(-6000)}`,
          );
        }
        expect(failures).toEqual([]);
        expect(calls.length).toBeGreaterThanOrEqual(minimumCurlCalls);
        // The walk-through reads each seeded record by its id (an unset variable would read the
        // type's list instead, which answers 200 too) and gets it.
        const demo = JSON.parse(readFileSync(path.join(stateDir, 'demo.json'), 'utf8')) as Record<string, unknown>;
        const readmeCalls = calls.filter((call) => where(call.scriptLine)?.placed.file === 'README.md');
        for (const [type, field] of seededRecords) {
          const id = demo[field];
          expect(typeof id).toBe('string');
          const read = readmeCalls.find((call) => call.args.includes(`/crm/v3/objects/${type}/${String(id)} `));
          expect({ type, id, status: read?.status }).toEqual({ type, id, status: 200 });
        }
      } finally {
        await stop(server.child);
        rmSync(stateDir, { recursive: true, force: true });
      }
    },
    startTimeoutMs + examplesTimeoutMs + 60_000,
  );
});
