import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { lambdaEsbuildOptions } from '../../lib/bundling';
import {
  bothSynthesesTimeoutMs,
  newUserEnvironment,
  synthCommands,
  synthesizedPlatform,
  userPath,
  type SynthCommand,
} from '../support/synthesized-platform';

/**
 * The README's synth commands as a new user runs them on a fresh checkout (test/support/
 * synthesized-platform.ts runs them once per change of the inputs; the other test files of
 * test/lib read the assemblies they write). The test run itself has TABLE_NAME and the rest of
 * the local configuration set for every process; the commands get none of it.
 */
const projectRoot = path.resolve(__dirname, '..', '..');

describe('synthesizing as a new user (environment: PATH and an empty HOME only)', () => {
  it("leaves out the test run's configuration and npm's node_modules/.bin", () => {
    const environment = newUserEnvironment('/home/new-user');

    expect(process.env.TABLE_NAME).toEqual(expect.any(String));
    expect(Object.keys(environment).sort()).toEqual(['HOME', 'PATH']);
    expect(userPath().split(path.delimiter)).not.toContain(path.join(projectRoot, 'node_modules', '.bin'));
  });

  it.each(Object.keys(synthCommands) as SynthCommand[])(
    '`%s` synthesizes both stacks',
    async (command) => {
      const platform = await synthesizedPlatform(command);
      const manifest = JSON.parse(readFileSync(path.join(platform.outdir, 'manifest.json'), 'utf8')) as {
        artifacts: Record<string, { type: string }>;
      };
      const stacks = Object.entries(manifest.artifacts)
        .filter(([, artifact]) => artifact.type === 'aws:cloudformation:stack')
        .map(([name]) => name);

      expect(stacks.sort()).toEqual([platform.stackNames.api, platform.stackNames.data].sort());
      expect(platform.output).toMatch(/Successfully synthesized/);
    },
    bothSynthesesTimeoutMs,
  );

  it("gives what npx starts (cdk, and the app cdk.json starts with npx tsx) the `node` devDependency's Node 22, as npm scripts get", () => {
    const home = mkdtempSync(path.join(tmpdir(), 'new-user-home-'));
    try {
      // What cdk.json's `npx tsx bin/cdk-app.ts` starts, under `npx cdk`: both see npx's PATH.
      const run = spawnSync('npx', ['node', '-p', 'process.versions.node'], {
        cwd: projectRoot,
        env: newUserEnvironment(home),
        encoding: 'utf8',
      });

      expect(run.status).toBe(0);
      expect(`node${run.stdout.trim().split('.')[0]}`).toBe(lambdaEsbuildOptions.target);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
