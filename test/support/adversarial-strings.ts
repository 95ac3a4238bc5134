/**
 * Long strings built to make a backtracking regular expression (or any loop that rescans its
 * input) take time super-linear in their length: long runs of what a pattern accepts, ended by
 * one character it refuses, so every way of splitting the run is tried before the match fails.
 * Each is 64 KiB (65,536 UTF-16 units), the longest property value the API accepts.
 */
export const adversarialLength = 65_536;

function run(unit: string, tail = ''): string {
  const body = unit.repeat(Math.ceil((adversarialLength - tail.length) / unit.length));
  return `${body.slice(0, adversarialLength - tail.length)}${tail}`;
}

export const adversarialStrings: Readonly<Record<string, string>> = {
  'digits then x': run('9', 'x'),
  'a, dots, then -': `a${run('.', '-').slice(1)}`,
  'dots then @': run('.', '@'),
  'an email of dots': `a@${run('.', '@').slice(2)}`,
  'signed decimal digits then e': `-1.${run('5', 'e').slice(3)}`,
  'exponent digits then x': `1e+${run('7', 'x').slice(3)}`,
  'ISO date then time digits': `2024-01-01T${run('1', 'x').slice(11)}`,
  'colons and digits': run(':1', '/'),
  'hyphenated labels then !': run('a-', '!'),
  'one-letter labels then !': run('a.', '!'),
  'scheme then spaces': `https://${run(' ', 'x').slice(8)}`,
  'url without end': `https://${run('a', ' ').slice(8)}`,
  'white space then x': run(' ', 'x'),
  'tabs and commas': run('\t,+', 'x'),
  'base64 then spaces': `Basic ${run('A', ' !').slice(6)}`,
  'repeated accented letter': run('é'),
  'repeated emoji': run('😀'),
  'lone surrogates': run('\ud800'),
  'nested brackets': run('(['),
  'nested JSON-like': run('{"a":'),
  'regex metacharacters': run('.*+?^${}()|[]\\'),
  'percent signs': run('%'),
  slashes: run('/'),
  'underscores then -': run('_', '-'),
  semicolons: run(';'),
  'at signs': run('@'),
};
