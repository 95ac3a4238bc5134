import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cachedBuild } from '../../lib/cached-build';

/** A project of two files, built the way lib/bundled-function.ts builds a handler. */
let root: string;
let cacheDir: string;
let builds = 0;

function build(): string {
  builds += 1;
  const outputDir = path.join(root, `out-${builds}`);
  mkdirSync(outputDir);
  cachedBuild(
    {
      absWorkingDir: root,
      entryPoints: [path.join(root, 'entry.ts')],
      outfile: path.join(outputDir, 'index.mjs'),
      bundle: true,
      format: 'esm',
      platform: 'node',
      sourcemap: true,
      logLevel: 'silent',
    },
    cacheDir,
  );
  return readFileSync(path.join(outputDir, 'index.mjs'), 'utf8');
}

/** The one kept build's bundle, as a later synth would copy it. */
function keptBundle(): string {
  const [entry] = readdirSync(cacheDir);
  return path.join(cacheDir, entry ?? '', 'index.mjs');
}

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'cached-build-'));
  cacheDir = path.join(root, 'cache');
  writeFileSync(
    path.join(root, 'entry.ts'),
    "import { greeting } from './greeting';\nexport const handler = () => greeting;\n",
  );
  writeFileSync(path.join(root, 'greeting.ts'), "export const greeting: string = 'hello';\n");
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('cachedBuild', () => {
  it('keeps a build and gives its files to the next build of unchanged inputs', () => {
    const first = build();
    // Marked, so the second build shows where its file came from.
    writeFileSync(keptBundle(), `${first}// kept\n`);

    const second = build();

    expect(first).toContain('"hello"');
    expect(second).toBe(`${first}// kept\n`);
  });

  it('builds again when an input file changed, and keeps the new build', () => {
    build();
    writeFileSync(path.join(root, 'greeting.ts'), "export const greeting: string = 'bonjour';\n");

    const rebuilt = build();

    expect(rebuilt).toContain('"bonjour"');
    expect(readFileSync(keptBundle(), 'utf8')).toBe(rebuilt);
  });

  it("shows a kept build's warnings again", () => {
    writeFileSync(path.join(root, 'greeting.ts'), "export const greeting = { text: 'hello', text: 'again' }.text;\n");
    build();
    const written: string[] = [];
    const spy = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    try {
      build();
    } finally {
      spy.mockRestore();
    }

    expect(written.join('')).toMatch(/Duplicate key "text"/);
  });
});
