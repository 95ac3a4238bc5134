import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildBundle } from '../../bench/build-bundle';
import { buildValidators } from '../../bin/build-validators';

/**
 * Source patterns that decide what esbuild can leave out of a function's bundle (docs/performance.md,
 * "Cold start, latest"). Each was found in a bundle that carried code its function never ran.
 */
const projectRoot = path.resolve(__dirname, '..', '..');

function sourceFiles(directory: string): string[] {
  return readdirSync(path.join(projectRoot, directory), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.parentPath.includes('generated'))
    .map((entry) => path.relative(projectRoot, path.join(entry.parentPath, entry.name)));
}

describe('bundle hygiene', () => {
  const files = [...sourceFiles('functions'), ...sourceFiles('shared')];
  const isComment = (line: string) => /^\s*(\/\/|\/\*|\*)/.test(line);

  it('annotates every typedSchema() call as pure, so a schema module keeps only the schemas a bundle uses', () => {
    const unannotated: string[] = [];
    for (const file of files) {
      const lines = readFileSync(path.join(projectRoot, file), 'utf8').split('\n');
      lines.forEach((line, index) => {
        if (
          /\btypedSchema\(/.test(line) &&
          !/\/\* @__PURE__ \*\/ typedSchema\(/.test(line) &&
          !/function typedSchema/.test(line) &&
          !isComment(line)
        )
          unannotated.push(`${file}:${index + 1}: ${line.trim()}`);
      });
    }
    expect(unannotated).toEqual([]);
  });
});

describe('the standard property catalogs in a bundle', () => {
  let outDir: string;
  beforeAll(async () => {
    await buildValidators();
    outDir = mkdtempSync(path.join(tmpdir(), 'bundle-hygiene-'));
  });
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  /** Whether the bundle of the route holds a standard label and a standard description. */
  async function catalogTextsIn(routeName: string, entry: string): Promise<{ label: boolean; description: boolean }> {
    const bundle = await buildBundle(entry, path.join(outDir, routeName), routeName);
    const code = readFileSync(bundle.file, 'utf8');
    return {
      label: code.includes('"Company Domain Name"'),
      description: code.includes('"The name of the company or organization."'),
    };
  }

  it('leaves the labels and descriptions out of a record function', async () => {
    expect(await catalogTextsIn('batchCreateObjects', 'functions/objects/batch-create-objects.ts')).toEqual({
      label: false,
      description: false,
    });
  });

  it("leaves the descriptions out of the properties API's writes", async () => {
    expect(await catalogTextsIn('createProperty', 'functions/properties/create-property.ts')).toEqual({
      label: true,
      description: false,
    });
  });

  it("keeps both in the properties API's reads", async () => {
    expect(await catalogTextsIn('getProperty', 'functions/properties/get-property.ts')).toEqual({
      label: true,
      description: true,
    });
  });
});
