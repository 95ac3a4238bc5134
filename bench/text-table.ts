/** A plain monospace table: a header row, a rule, then the rows; numbers right-aligned. */
export function textTable(
  headers: readonly string[],
  rows: readonly (readonly (string | number | boolean)[])[],
): string {
  const cells = rows.map((row) => row.map((cell) => (typeof cell === 'number' ? formatNumber(cell) : String(cell))));
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...cells.map((row) => (row[column] ?? '').length)),
  );
  const isNumeric = headers.map((_, column) => rows.every((row) => typeof row[column] === 'number'));
  const line = (row: readonly string[]) =>
    row
      .map((cell, column) =>
        isNumeric[column] ? cell.padStart(widths[column] ?? 0) : cell.padEnd(widths[column] ?? 0),
      )
      .join('  ')
      .trimEnd();
  return [line(headers), widths.map((width) => '-'.repeat(width)).join('  '), ...cells.map(line)].join('\n');
}

/** The same table in Markdown, for docs/performance.md. */
export function markdownTable(
  headers: readonly string[],
  rows: readonly (readonly (string | number | boolean)[])[],
): string {
  const isNumeric = headers.map((_, column) => rows.every((row) => typeof row[column] === 'number'));
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [
    line([...headers]),
    line(headers.map((_, column) => (isNumeric[column] ? '---:' : '---'))),
    ...rows.map((row) => line(row.map((cell) => (typeof cell === 'number' ? formatNumber(cell) : String(cell))))),
  ].join('\n');
}

function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return 'n/a';
  return Number.isInteger(value) ? String(value) : value.toFixed(value >= 100 ? 1 : value >= 10 ? 2 : 3);
}

export const yesNo = (isMet: boolean): string => (isMet ? 'yes' : 'NO');
