import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { docsInMapOrder } from '../support/readme-examples';

/**
 * README.md is the front page (what the service is, the two commands, the walk-through,
 * the map of the docs, the tests), at most 220 lines; everything else lives in docs/, one file per
 * topic, each listed in the README's map, and the links between them lead somewhere.
 */
const root = path.resolve(__dirname, '..', '..');
const maxReadmeLines = 220;

const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
const docs = readdirSync(path.join(root, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => `docs/${name}`)
  .sort();
const markdownFiles = ['README.md', ...docs];

/** The lines of a Markdown text outside fenced code blocks, with inline code spans blanked unless kept. */
function proseLines(markdown: string, keepCodeSpans = false): string[] {
  const lines: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const marker = /^ *(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === undefined && marker) fence = marker;
    else if (
      fence !== undefined &&
      marker &&
      marker[0] === fence[0] &&
      marker.length >= fence.length &&
      line.trim() === marker
    )
      fence = undefined;
    else if (fence === undefined) lines.push(keepCodeSpans ? line : line.replace(/(`+)(?:(?!\1).)+?\1/g, ''));
  }
  return lines;
}

/** GitHub's anchors for a file's headings (lower case, punctuation dropped, spaces to hyphens, repeats numbered). */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const heading of proseLines(markdown, true)
    .join('\n')
    .matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = (heading[1] ?? '')
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

describe('the README as the front page', () => {
  it(`is at most ${maxReadmeLines} lines`, () => {
    expect(readme.replace(/\n$/, '').split('\n').length).toBeLessThanOrEqual(maxReadmeLines);
  });

  it('lists every file of docs/ once in its map of the docs, and only files that exist', () => {
    expect([...docsInMapOrder(readme)].sort()).toEqual(docs);
  });

  it.each(markdownFiles)('%s: every relative link leads to a file and heading that exist', (file) => {
    const broken: string[] = [];
    const lines = proseLines(readFileSync(path.join(root, file), 'utf8'));
    for (const link of lines.join('\n').matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = link[1] ?? '';
      if (/^[a-z]+:/i.test(target)) continue;
      const [pathPart = '', anchor] = target.split('#');
      const targetFile =
        pathPart === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), pathPart));
      if (!existsSync(path.join(root, targetFile))) {
        broken.push(`${target}: no file ${targetFile}`);
      } else if (
        anchor !== undefined &&
        targetFile.endsWith('.md') &&
        !anchorsOf(readFileSync(path.join(root, targetFile), 'utf8')).has(anchor)
      ) {
        broken.push(`${target}: no heading #${anchor} in ${targetFile}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
