import { statSync } from 'node:fs';
import path from 'node:path';
import { build, type Metafile } from 'esbuild';
import { type BundledRoute, lambdaAliasesFor, lambdaEsbuildOptions } from '../lib/bundling';

export const projectRoot = path.resolve(__dirname, '..');

export interface BuiltBundle {
  entry: string;
  file: string;
  bytes: number;
  metafile: Metafile;
}

/**
 * Builds one handler exactly as the CDK stack bundles it (lib/bundling.ts), into outDir/index.mjs:
 * for a stage without the test-account controls unless `sandboxControls` (the controls' own rows
 * exist only on a stage with them).
 */
export async function buildBundle(
  entry: string,
  outDir: string,
  route?: BundledRoute,
  sandboxControls = false,
): Promise<BuiltBundle> {
  const file = path.join(outDir, 'index.mjs');
  const result = await build({
    ...lambdaEsbuildOptions,
    mainFields: [...lambdaEsbuildOptions.mainFields],
    alias: lambdaAliasesFor(route?.name, { sandboxControls }),
    absWorkingDir: projectRoot,
    entryPoints: [path.resolve(projectRoot, entry)],
    outfile: file,
    metafile: true,
  });
  return { entry, file, bytes: statSync(file).size, metafile: result.metafile };
}

/** Bytes of the output that each package (or the project's own code) contributes, largest first. */
export function bytesByPackage(metafile: Metafile): { name: string; bytes: number }[] {
  const totals = new Map<string, number>();
  for (const output of Object.values(metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
      const name = match?.[1] ?? '(project)';
      totals.set(name, (totals.get(name) ?? 0) + bytesInOutput);
    }
  }
  return [...totals].map(([name, bytes]) => ({ name, bytes })).sort((a, b) => b.bytes - a.bytes);
}
