/**
 * The length of `JSON.stringify(value)` (compact, as a client sends it), counted with an explicit
 * stack instead of recursion, so no depth of nesting can overflow the call stack (JSON.stringify
 * throws RangeError on a body nested a few thousand levels deep). Counting stops once it passes
 * `cap`: the answer is then some number above `cap`, reached after at most about `cap` steps plus
 * the length of one string. For parsed JSON (strings, numbers, booleans, null, arrays, plain objects).
 */
export function compactJsonLength(value: unknown, cap: number): number {
  let length = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0 && length <= cap) {
    const next = pending.pop();
    if (typeof next === 'string') length += JSON.stringify(next).length;
    else if (typeof next === 'number') length += Number.isFinite(next) ? String(next).length : 4;
    else if (typeof next === 'boolean') length += next ? 4 : 5;
    else if (Array.isArray(next)) {
      // Brackets, commas; undefined items are written as null.
      length += 2 + Math.max(0, next.length - 1);
      for (let index = next.length - 1; index >= 0 && length <= cap; index -= 1)
        pending.push(next[index] === undefined ? null : next[index]);
    } else if (typeof next === 'object' && next !== null) {
      // Braces, and per written entry its quoted key, a colon and a comma between entries; undefined values are left out.
      const entries = Object.entries(next).filter(([, entry]) => entry !== undefined);
      length += 2 + Math.max(0, entries.length - 1);
      for (let index = entries.length - 1; index >= 0 && length <= cap; index -= 1) {
        const [key, entry] = entries[index] as [string, unknown];
        length += JSON.stringify(key).length + 1;
        pending.push(entry);
      }
    } else {
      length += 4;
    }
  }
  return length;
}
