import { buildBundle } from '../../bench/build-bundle';
import { findRoute } from '../../shared/routes';
import { useBundleOutDir } from '../support/bundle-out-dir';

/**
 * A function's bundle carries its own route row, not the route table: the table (102 paths) would
 * be about 22 KiB of every bundle's minified code, a fifth of what the project adds over the floor.
 */
describe('a function bundle and the route table', () => {
  const outDir = useBundleOutDir('route-row-');

  it('takes its route row from the generated module and leaves shared/routes.ts out', async () => {
    const bundle = await buildBundle('functions/oauth/issue-token.ts', outDir(), findRoute('issueToken'));
    // Bytes each source file puts into the output (a file esbuild read and shook out puts none).
    const bytesOf = (file: string) =>
      Object.values(bundle.metafile.outputs).reduce(
        (sum, output) => sum + (output.inputs[file]?.bytesInOutput ?? 0),
        0,
      );
    // The whole table would be about 22 KiB of this bundle; nothing of the file is left, nor of the scope
    // unions only the table reads (a row that read a property, or a union built at load, kept them).
    expect(bytesOf('shared/routes.ts')).toBe(0);
    expect(bytesOf('shared/objects/object-type-scopes.ts')).toBe(0);
    expect(bytesOf('shared/pipelines/pipeline-scopes.ts')).toBe(0);
    expect(bytesOf('shared/http/generated/route-issueToken-row.js')).toBeGreaterThan(100);
  });
});
