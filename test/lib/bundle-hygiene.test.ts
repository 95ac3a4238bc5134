import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

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
