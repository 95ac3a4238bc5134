/**
 * The shell examples of the README and of docs/, as the examples test runs them.
 *
 * Convention (stated in docs/testing.md too): every fenced block whose info string starts with `sh`
 * or `bash` is an example that works when pasted, in order (README.md, then the files of docs/ in
 * the order of the README's map of the docs), in one shell after a fresh `npm start`. A block that
 * cannot run there (it starts the server, deploys, needs Docker or AWS) says so in its info string:
 * ```` ```sh no-run ````. A command whose documented answer is not a 2xx/3xx names its status in a
 * comment on its last line (`curl … # 404`) or on the line right after it (`# 404`); a status named
 * that way must then be exactly what the command answers.
 */

/** The heading of the README's map of the docs, whose links give the order the docs run in. */
export const docsMapHeading = '## The docs';

/**
 * The files of docs/ in the order the README's map lists them (each file once, at its first link
 * within the map's section; links elsewhere in the README do not count).
 */
export function docsInMapOrder(readme: string): string[] {
  const lines = readme.split('\n');
  const start = lines.indexOf(docsMapHeading);
  if (start < 0) throw new Error(`README.md has no "${docsMapHeading}" section`);
  const end = lines.findIndex((line, index) => index > start && /^#{1,2} /.test(line));
  const section = lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
  const files: string[] = [];
  for (const link of section.matchAll(/\]\((docs\/[\w.-]+\.md)\)/g)) {
    const file = link[1] ?? '';
    if (!files.includes(file)) files.push(file);
  }
  return files;
}

export interface ShellBlock {
  /** 1-based line of the Markdown file where the block's first line of code is. */
  line: number;
  lines: string[];
}

/** The fenced `sh`/`bash` blocks of a Markdown text, without `no-run` ones, indentation removed. */
export function runnableShellBlocks(markdown: string): ShellBlock[] {
  const lines = markdown.split('\n');
  const blocks: ShellBlock[] = [];
  let open: { indent: number; fence: string; runnable: boolean; block: ShellBlock } | undefined;
  lines.forEach((line, index) => {
    if (!open) {
      const fence = /^( *)(`{3,}|~{3,})\s*([^`]*)$/.exec(line);
      if (!fence) return;
      const words = (fence[3] ?? '')
        .trim()
        .split(/[\s,{}]+/)
        .filter((word) => word !== '');
      const runnable = (words[0] === 'sh' || words[0] === 'bash') && !words.includes('no-run');
      open = {
        indent: fence[1]?.length ?? 0,
        fence: fence[2] ?? '```',
        runnable,
        block: { line: index + 2, lines: [] },
      };
      return;
    }
    if (new RegExp(`^ {0,${open.indent + 3}}${open.fence[0]}{${open.fence.length},}\\s*$`).test(line)) {
      if (open.runnable) blocks.push(open.block);
      open = undefined;
      return;
    }
    open.block.lines.push(line.slice(Math.min(open.indent, line.length - line.trimStart().length)));
  });
  return blocks;
}

export interface ShellCommand {
  /** 0-based first and last line of the command within its block. */
  start: number;
  end: number;
  /** The status the Markdown documents for it, when it names one. */
  expectedStatus?: number;
}

const statusComment = /^#\s*([1-5]\d\d)\b/;

/**
 * Splits a block into commands the way a shell reads lines: a command goes on past a line that
 * ends with a backslash, inside quotes, inside `$(…)` and through a here-document. Not a full
 * shell parser: enough to find which command a line belongs to and the comment that ends it.
 */
export function shellCommands(lines: string[]): ShellCommand[] {
  const commands: ShellCommand[] = [];
  let start: number | undefined;
  /** Open quotes and parentheses, innermost last: ' " or (. */
  const open: string[] = [];
  let heredoc: string | undefined;
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    if (heredoc !== undefined) {
      if (line.trim() === heredoc) heredoc = undefined;
      if (heredoc === undefined && start !== undefined && open.length === 0) {
        commands.push({ start, end: index });
        start = undefined;
      }
      continue;
    }
    let comment: string | undefined;
    let code = false;
    let continued = false;
    for (let at = 0; at < line.length; at += 1) {
      const char = line[at] ?? '';
      const inside = open[open.length - 1];
      if (inside === "'") {
        if (char === "'") open.pop();
        continue;
      }
      if (char === '\\') {
        if (at === line.length - 1) continued = true;
        at += 1;
        continue;
      }
      if (inside === '"') {
        if (char === '"') open.pop();
        else if (char === '$' && line[at + 1] === '(') {
          open.push('(');
          at += 1;
        }
        continue;
      }
      if (char === '#' && (at === 0 || /\s/.test(line[at - 1] ?? ''))) {
        comment = line.slice(at);
        break;
      }
      if (!/\s/.test(char)) code = true;
      if (char === "'" || char === '"' || char === '(') open.push(char);
      else if (char === ')' && inside === '(') open.pop();
      else if (char === '<' && line[at + 1] === '<' && line[at + 2] !== '<') {
        const marker = /^<<-?\s*['"]?([A-Za-z_]\w*)['"]?/.exec(line.slice(at));
        if (marker) heredoc = marker[1];
      }
    }
    if (code && start === undefined) start = index;
    if (start === undefined || continued || open.length > 0 || heredoc !== undefined) continue;
    const command: ShellCommand = { start, end: index };
    const status = statusComment.exec(comment ?? '') ?? statusComment.exec((lines[index + 1] ?? '').trim());
    if (status) command.expectedStatus = Number(status[1]);
    commands.push(command);
    start = undefined;
  }
  if (start !== undefined) commands.push({ start, end: lines.length - 1 });
  return commands;
}

/** The command of a block that a line belongs to. */
export function commandAt(commands: ShellCommand[], line: number): ShellCommand | undefined {
  return commands.find((command) => command.start <= line && line <= command.end);
}
