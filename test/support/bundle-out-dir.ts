import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildValidators } from '../../bin/build-validators';

/**
 * Where a describe block builds function bundles (bench/build-bundle.ts): the generated validators,
 * which every bundle imports, are built first, and the temporary folder is removed after the block.
 */
export function useBundleOutDir(prefix: string): () => string {
  let outDir: string | undefined;
  beforeAll(async () => {
    await buildValidators();
    outDir = mkdtempSync(path.join(tmpdir(), prefix));
  });
  afterAll(() => {
    if (outDir) rmSync(outDir, { recursive: true, force: true });
  });
  return () => {
    if (!outDir) throw new Error('the bundle folder is made in beforeAll');
    return outDir;
  };
}
