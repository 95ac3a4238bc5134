import { commandAt, docsInMapOrder, runnableShellBlocks, shellCommands } from '../support/readme-examples';

describe('README example extraction', () => {
  it('takes sh and bash blocks in order, with indentation removed, and leaves out no-run and other languages', () => {
    const markdown = [
      '# Title',
      '```sh',
      'echo one',
      '```',
      'text',
      '```json',
      '{"a":1}',
      '```',
      '1. step',
      '   ```bash',
      '   echo two',
      '     indented',
      '   ```',
      '```sh no-run',
      'npm start',
      '```',
      '```',
      'plain',
      '```',
      '````sh',
      '```',
      'echo three',
      '````',
    ].join('\n');

    expect(runnableShellBlocks(markdown)).toEqual([
      { line: 3, lines: ['echo one'] },
      { line: 11, lines: ['echo two', '  indented'] },
      { line: 21, lines: ['```', 'echo three'] },
    ]);
  });

  it('joins continued lines, quotes spanning lines, $( … ) and here-documents into one command', () => {
    const lines = [
      'curl -s a \\',
      '  -d x      # 404',
      'X=$(curl -s b \\',
      '  | json id)',
      'curl -d \'{"a":1,',
      '  "b":2}\'',
      '# 201',
      'cat <<EOF',
      'line # 500',
      'EOF',
      'curl -w "%{http_code} $(echo ")")"   # 204; text after',
      'echo "#not a comment" # legacy PUT: 204',
    ];

    const commands = shellCommands(lines);

    expect(commands).toEqual([
      { start: 0, end: 1, expectedStatus: 404 },
      { start: 2, end: 3 },
      { start: 4, end: 5, expectedStatus: 201 },
      { start: 7, end: 9 },
      { start: 10, end: 10, expectedStatus: 204 },
      { start: 11, end: 11 },
    ]);
    expect(commandAt(commands, 3)).toEqual({ start: 2, end: 3 });
    expect(commandAt(commands, 6)).toBeUndefined();
  });

  it("orders the docs by their first link in the README's map section, and nowhere else", () => {
    const readme = [
      '# Title',
      'See [search](docs/search.md) first.',
      '## The docs',
      '',
      '| File | What |',
      '|---|---|',
      '| [docs/oauth.md](docs/oauth.md) | OAuth |',
      '| [docs/search.md](docs/search.md), also [again](docs/oauth.md) | Search |',
      '### A sub-heading stays in the section',
      '[Timeline](docs/timeline.md)',
      '## Running the tests',
      '[Testing](docs/testing.md)',
    ].join('\n');

    expect(docsInMapOrder(readme)).toEqual(['docs/oauth.md', 'docs/search.md', 'docs/timeline.md']);
    expect(() => docsInMapOrder('# Title\n[OAuth](docs/oauth.md)')).toThrow('## The docs');
  });
});
