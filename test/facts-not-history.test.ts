import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { projectRoot } from './support/source-files';

/**
 * Comments and docs state what is; history lives in git. Every comment of the source and test
 * code (the TypeScript and JavaScript under the folders below) and every line of README.md and
 * docs/*.md is held to these rules:
 *
 * 1. No issue number: "issue 18", "issues 18/19", "#18".
 * 2. No date of a measurement. A date with a day ("2026-11-28", "28 November 2026", "November 28,
 *    2026") or a date-time ("2026-12-02 02:10") is a measurement's date, and so is any date right
 *    after "measured", "run", "probe" or "CI of". Allowed: HubSpot's API versions, which have no day
 *    ("2026-03", "/oauth/2026-03/token"), a month and year ("December 2024"), a dated fact on a line
 *    that names its source (HubSpot, an announcement, a changelog or a link), and data: fenced
 *    blocks and code spans of the docs.
 * 3. No former size: "were about 1.5 KiB", "was 22,378 bytes", "from 90 to 70 KiB", "down from 2 KiB"
 *    (what the code does stays: "the mask grows from 3 to 4 bytes").
 * 4. A repo-relative path a comment or a doc names (under shared, functions, test, bin, lib, bench,
 *    local or docs) exists: as a file, a folder, or a module specifier without its .ts or .mjs. A
 *    path with a placeholder ("<type>", "{name}", "${name}", "…") is skipped; a glob
 *    ("test/functions/*.test.ts") must match a file; a path the build writes (one .gitignore lists,
 *    such as shared/http/generated/) is skipped, since a fresh checkout has none.
 *
 * In a comment, what it quotes ("...", '...', `...`) is an example, not a statement: rules 1 to 3
 * read the comment without it; rule 4 reads all of it.
 */
const codeFolders = ['shared', 'functions', 'lib', 'bin', 'bench', 'local', 'test'];
const pathRoots = [...codeFolders, 'docs'];

const monthNames = 'January|February|March|April|May|June|July|August|September|October|November|December';
const dayDate = new RegExp(
  `\\b\\d{4}-\\d{2}-\\d{2}\\b|\\b\\d{1,2} (?:${monthNames}) \\d{4}\\b|\\b(?:${monthNames}) \\d{1,2},? \\d{4}\\b`,
);
const dateTime = /\b\d{4}-\d{2}-\d{2}[T ]\d{1,2}:\d{2}\b/;
const measuredDate = new RegExp(
  `\\b(?:measured|run|probe|CI)(?: on| of| in)?,? \\(?(?:\\d{4}-\\d{2}-\\d{2}|(?:\\d{1,2} )?(?:${monthNames}) (?:\\d{1,2},? )?\\d{4})`,
  'i',
);
const namesSource = /\bHubSpot\b|\bannounc\w*|\bchangelog\b|https?:\/\//i;
const issueNumber = /\bissues? #?\d+|(?<![\w#&/])#\d+\b/i;
const sizeUnit = '(?:KiB|KB|kB|MiB|MB|bytes|B)';
const formerSizes = [
  new RegExp(
    `\\b(?:was|were|used to be|had been) (?:about |around |roughly |nearly |almost |over |under )?[\\d.,]+ ?${sizeUnit}\\b`,
    'i',
  ),
  new RegExp(
    `(?<!\\b(?:grows|shrinks|goes|rises|falls) )\\bfrom [\\d.,]+ ?(?:${sizeUnit} )?to [\\d.,]+ ?${sizeUnit}\\b`,
    'i',
  ),
  new RegExp(`\\b(?:down|up) from [\\d.,]+ ?${sizeUnit}\\b`, 'i'),
];

/** The rules of history a line breaks; `text` is the line, `prose` the same line with its code blanked out. */
function historyProblems(text: string, prose: string): string[] {
  const problems: string[] = [];
  if (issueNumber.test(text)) problems.push('names an issue number');
  if (dateTime.test(prose) || measuredDate.test(prose)) problems.push("names a measurement's date");
  else if (dayDate.test(prose) && !namesSource.test(prose))
    problems.push("names a date (a measurement's, with no source)");
  if (formerSizes.some((pattern) => pattern.test(text))) problems.push('names a former size');
  return problems;
}

const pathPattern = new RegExp(`(?<![\\w./@-])((?:${pathRoots.join('|')})/[^\\s\`'"()\\[\\],;:|]*)`, 'g');
const placeholder = /[<>{}$…]|\.\.\./;

/** Path patterns of .gitignore that name a place inside the tree (the build's output). */
const ignoredPlaces = readFileSync(path.join(projectRoot, '.gitignore'), 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => /^[\w.-]+\/.+/.test(line))
  .map((line) => globToRegExp(line.replace(/\/$/, '')));

function globToRegExp(glob: string): RegExp {
  const source = glob
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^/]*');
  return new RegExp(`^${source}(?:/|$)`);
}

/** Every file under a folder of the project, as paths from its root (node_modules left out). */
function filesUnder(directory: string): string[] {
  const absolute = path.join(projectRoot, directory);
  if (!existsSync(absolute)) return [];
  return readdirSync(absolute, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && !entry.parentPath.includes('node_modules'))
    .map((entry) => path.relative(projectRoot, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}

/** Why a named path does not hold, or undefined when it exists (or is skipped by the rules above). */
function pathProblem(named: string): string | undefined {
  const candidate = named.replace(/#.*$/, '').replace(/[.…]+$/, '');
  if (placeholder.test(candidate) || candidate === '') return undefined;
  if (ignoredPlaces.some((place) => place.test(candidate))) return undefined;
  if (candidate.includes('*')) {
    const fixed = candidate.slice(0, candidate.indexOf('*')).replace(/[^/]*$/, '');
    const pattern = new RegExp(
      `^${candidate
        .split(/(\*\*\/?|\*)/)
        .map((part) =>
          part === '**/' || part === '**'
            ? '(?:.*/)?'
            : part === '*'
              ? '[^/]*'
              : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'),
        )
        .join('')}$`,
    );
    return filesUnder(fixed).some((file) => pattern.test(file) || pattern.test(`${file}/`))
      ? undefined
      : `no file matches ${candidate}`;
  }
  const exists = ['', '.ts', '.mjs', '.js'].some((suffix) => existsSync(path.join(projectRoot, candidate + suffix)));
  return exists ? undefined : `${candidate} does not exist`;
}

function pathProblems(text: string): string[] {
  return [...text.matchAll(pathPattern)].flatMap((match) => {
    const problem = pathProblem(match[1] ?? '');
    return problem ? [problem] : [];
  });
}

interface Finding {
  where: string;
  text: string;
  problems: string[];
}

/** The comments of a TypeScript or JavaScript source, each with the line it starts on. */
function commentsOf(file: string, source: string): { line: number; text: string }[] {
  const sourceFile = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const seen = new Set<number>();
  const comments: { line: number; text: string }[] = [];
  const collect = (ranges: readonly ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) {
      if (seen.has(range.pos)) continue;
      seen.add(range.pos);
      comments.push({
        line: sourceFile.getLineAndCharacterOfPosition(range.pos).line + 1,
        text: source.slice(range.pos, range.end),
      });
    }
  };
  const visit = (node: ts.Node) => {
    collect(ts.getLeadingCommentRanges(source, node.pos));
    collect(ts.getTrailingCommentRanges(source, node.end));
    for (const child of node.getChildren(sourceFile)) visit(child);
  };
  visit(sourceFile);
  return comments.sort((a, b) => a.line - b.line);
}

/** Quoted strings and code spans of a comment's line blanked out: the data a comment quotes. */
const withoutQuotes = (line: string): string => line.replace(/`[^`]*`|(?<!\w)'[^'\n]*'(?!\w)|"[^"\n]*"/g, '');

function commentFindings(file: string): Finding[] {
  const source = readFileSync(path.join(projectRoot, file), 'utf8');
  return commentsOf(file, source).flatMap(({ line, text }) =>
    text.split('\n').flatMap((commentLine, offset) => {
      const statement = withoutQuotes(commentLine);
      const problems = [...historyProblems(statement, statement), ...pathProblems(commentLine)];
      return problems.length > 0 ? [{ where: `${file}:${line + offset}`, text: commentLine.trim(), problems }] : [];
    }),
  );
}

function docFindings(file: string): Finding[] {
  const findings: Finding[] = [];
  let fence: string | undefined;
  readFileSync(path.join(projectRoot, file), 'utf8')
    .split('\n')
    .forEach((line, index) => {
      const marker = /^ *(`{3,}|~{3,})/.exec(line)?.[1];
      const inCode = fence !== undefined || marker !== undefined;
      if (fence === undefined && marker) fence = marker;
      else if (fence !== undefined && marker && marker[0] === fence[0] && line.trim() === marker) fence = undefined;
      const prose = inCode ? '' : line.replace(/(`+)(?:(?!\1).)+?\1/g, '');
      const problems = [...historyProblems(line, prose), ...pathProblems(line)];
      if (problems.length > 0) findings.push({ where: `${file}:${index + 1}`, text: line.trim(), problems });
    });
  return findings;
}

const ignoredSource = (file: string) => ignoredPlaces.some((place) => place.test(file));
const codeFiles = codeFolders
  .flatMap(filesUnder)
  .filter((file) => /\.(ts|mts|cts|js|mjs|cjs)$/.test(file) && !ignoredSource(file))
  .sort();
const docFiles = [
  'README.md',
  ...readdirSync(path.join(projectRoot, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`)
    .sort(),
];

const report = (findings: Finding[]) =>
  findings.map(
    (finding) =>
      `${finding.where}: ${finding.problems.join('; ')}: ${finding.text.length > 160 ? `${finding.text.slice(0, 160)}…` : finding.text}`,
  );

describe('the rules', () => {
  it.each([
    ['measured 2026-11-28', "names a measurement's date"],
    ['(2026-12-02 02:10 UTC, 2 cores)', "names a measurement's date"],
    ['a probe of 2026-11-28: 2 of about 300', "names a measurement's date"],
    ['Cold start, 2026-11-28', "names a date (a measurement's, with no source)"],
    ['the rule cost 1 KiB (28 November 2026)', "names a date (a measurement's, with no source)"],
    ['were about 1.5 KiB of each body validator', 'names a former size'],
    ['the table was 22,378 bytes of this bundle', 'names a former size'],
    ['bundles went from 90 to 70 KiB', 'names a former size'],
    ['issue 18', 'names an issue number'],
    ['What moved in issues 18/19', 'names an issue number'],
    ['(see #18)', 'names an issue number'],
  ])('refuses %j', (line, problem) => {
    expect(historyProblems(line, line)).toContain(problem);
  });

  it.each([
    'POST /oauth/2026-03/token, the 2026-09 and 2027-03 versions',
    'events are immutable since December 2024',
    'HubSpot announced the change on 2025-09-01 (https://developers.hubspot.com/changelog)',
    'a base64 DER PKCS#8 key, keys HUB#n#SEARCH#shard',
    'a 64 KiB value; the whole table is about 22 KiB',
    'the service issues a token',
    'a sixth scope: the mask grows from 3 to 4 bytes',
  ])('allows %j', (line) => {
    expect(historyProblems(line, line)).toEqual([]);
  });

  it('tells a named path that is missing from one that exists, and skips placeholders and what the build writes', () => {
    expect(pathProblems('see shared/routes.ts and shared/no-such-folder/x.ts.')).toEqual([
      'shared/no-such-folder/x.ts does not exist',
    ]);
    expect(pathProblems('test/support/source-files (a module), test/support/, docs/design.md#the-tree')).toEqual([]);
    expect(pathProblems('test/readme/*.test.ts, and test/readme/*.nothing')).toEqual([
      'no file matches test/readme/*.nothing',
    ]);
    expect(pathProblems('shared/objects/types/<type>.ts, shared/http/generated/route-x.mjs')).toEqual([]);
  });

  it('reads comments, not strings', () => {
    expect(
      commentsOf('x.ts', "const a = '// issue 1';\n/** One. */\nconst b = `/* 2026-01-02 */`; // two\n").map(
        (comment) => comment.text,
      ),
    ).toEqual(['/** One. */', '// two']);
  });
});

describe('comments and docs state facts', () => {
  it('reads the source of every folder', () => {
    for (const folder of codeFolders) expect(codeFiles.some((file) => file.startsWith(`${folder}/`))).toBe(true);
    expect(codeFiles).toContain('test/facts-not-history.test.ts');
  });

  it('no comment in source or test code names an issue, a measurement date, a former size or a missing path', () => {
    expect(report(codeFiles.flatMap(commentFindings))).toEqual([]);
  });

  it.each(docFiles)('%s names no issue, measurement date, former size or missing path', (file) => {
    expect(report(docFindings(file))).toEqual([]);
  });
});
