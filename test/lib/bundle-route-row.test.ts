import { buildBundle } from '../../bench/build-bundle';
import { findRoute } from '../../shared/routes';
import { useBundleOutDir } from '../support/bundle-out-dir';

/**
 * A function's bundle carries its own route row, not the route table: the row is part of the
 * module of the route's chain parts that bin/build-validators.ts writes, and shared/routes.ts is
 * read only by source (shared/http/route-parts.ts).
 */
describe('a function bundle and the route table', () => {
  const outDir = useBundleOutDir('route-row-');

  it('takes its route row from its generated parts and leaves shared/routes.ts out', async () => {
    const bundle = await buildBundle('functions/oauth/issue-token.ts', outDir(), findRoute('issueToken'));
    // Bytes each source file puts into the output (a file esbuild read and shook out puts none).
    const bytesOf = (file: string) =>
      Object.values(bundle.metafile.outputs).reduce(
        (sum, output) => sum + (output.inputs[file]?.bytesInOutput ?? 0),
        0,
      );
    // Nothing of the table is left, nor of the scope unions only the table reads.
    expect(bytesOf('shared/routes.ts')).toBe(0);
    expect(bytesOf('shared/http/route-parts.ts')).toBe(0);
    expect(bytesOf('shared/objects/object-type-scopes.ts')).toBe(0);
    expect(bytesOf('shared/pipelines/pipeline-scopes.ts')).toBe(0);
    expect(bytesOf('shared/http/generated/route-issueToken-parts.mjs')).toBeGreaterThan(100);
  });
});
