import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { lambdaEsbuildOptions } from '../lib/bundling';

/**
 * The project is built and tested on the Node.js the functions run on: the `node` devDependency
 * puts that binary in node_modules/.bin, which npm (scripts, npx) puts first on PATH, so `npm test`
 * runs jest, its workers and every process a test spawns on it even where the machine has another.
 */
const projectRoot = path.resolve(__dirname, '..');
const packageJson = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as {
  engines: { node: string };
  devDependencies: Record<string, string>;
};
const pinned = packageJson.devDependencies.node ?? '';

describe('the Node.js the tests run on', () => {
  it('is the version the node devDependency pins', () => {
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    expect(process.versions.node).toBe(pinned);
    expect(process.versions.node.startsWith('22.')).toBe(true);
  });

  it('has the major of the Lambda runtime the bundles target, and satisfies engines', () => {
    const major = Number(process.versions.node.split('.')[0]);

    expect(lambdaEsbuildOptions.target).toBe(`node${major}`);
    expect(packageJson.engines.node).toBe(`>=${major}`);
  });

  it('is the node on PATH and the one a test spawns with process.execPath', () => {
    const onPath = execFileSync('node', ['--version'], { encoding: 'utf8' }).trim();
    const spawned = execFileSync(process.execPath, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();

    expect(onPath).toBe(`v${pinned}`);
    expect(spawned).toBe(pinned);
  });
});
