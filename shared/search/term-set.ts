/**
 * The terms of a search's `query`, matched all at once (Aho-Corasick): whether every term occurs
 * in at least one of a record's texts costs one pass over each text plus the terms' length,
 * whatever the number of terms. Calling includes() once per term costs terms x text length
 * (1,000 two-letter terms over a 64 KiB value: 380 ms), and V8's includes is not linear in the
 * worst case anyway (see glob-pattern.ts).
 */
export class TermSet {
  /** Trie transitions by UTF-16 code unit; node 0 is the root. */
  private readonly next: Map<number, number>[] = [new Map()];
  /** The node of the longest proper suffix of a node's string that is in the trie. */
  private readonly fail: number[] = [0];
  /** Whether a node's string is a term. */
  private readonly isTerm: boolean[] = [false];
  /** The nearest node down the fail chain (excluding the node itself) that is a term; 0 for none. */
  private readonly termLink: number[] = [0];
  /** seen[node] === stamp: that term was found during the current check. */
  private seen: Uint32Array;
  private stamp = 0;
  /** The number of distinct non-empty terms. */
  readonly size: number;

  constructor(terms: readonly string[]) {
    const unique = [...new Set(terms)].filter((term) => term !== '');
    this.size = unique.length;
    for (const term of unique) {
      let node = 0;
      for (let index = 0; index < term.length; index += 1) {
        const code = term.charCodeAt(index);
        let child = this.next[node]?.get(code);
        if (child === undefined) {
          child = this.next.length;
          this.next.push(new Map());
          this.fail.push(0);
          this.isTerm.push(false);
          this.termLink.push(0);
          this.next[node]?.set(code, child);
        }
        node = child;
      }
      this.isTerm[node] = true;
    }
    // Breadth first: a node's fail target is shallower, so it is complete before the node is.
    const queue: number[] = [...(this.next[0]?.values() ?? [])];
    for (let head = 0; head < queue.length; head += 1) {
      const node = queue[head] ?? 0;
      for (const [code, child] of this.next[node] ?? []) {
        let fallback = this.fail[node] ?? 0;
        while (fallback !== 0 && !this.next[fallback]?.has(code)) fallback = this.fail[fallback] ?? 0;
        const target = this.next[fallback]?.get(code);
        this.fail[child] = target !== undefined && target !== child ? target : 0;
        const failNode = this.fail[child] ?? 0;
        this.termLink[child] = this.isTerm[failNode] ? failNode : (this.termLink[failNode] ?? 0);
        queue.push(child);
      }
    }
    this.seen = new Uint32Array(this.next.length);
  }

  /** True when each term occurs (as a substring) in at least one of the texts. */
  allOccurIn(texts: readonly (string | undefined)[]): boolean {
    if (this.size === 0) return true;
    this.stamp += 1;
    if (this.stamp === 0xffffffff) {
      this.seen = new Uint32Array(this.next.length);
      this.stamp = 1;
    }
    let found = 0;
    for (const text of texts) {
      if (text === undefined) continue;
      let node = 0;
      for (let index = 0; index < text.length; index += 1) {
        const code = text.charCodeAt(index);
        let child = this.next[node]?.get(code);
        while (child === undefined && node !== 0) {
          node = this.fail[node] ?? 0;
          child = this.next[node]?.get(code);
        }
        node = child ?? 0;
        // Every term ending here, each counted once per check: a term already seen ends the walk,
        // since the terms below it on the chain were marked when it was.
        for (
          let term = this.isTerm[node] ? node : (this.termLink[node] ?? 0);
          term !== 0 && this.seen[term] !== this.stamp;
          term = this.termLink[term] ?? 0
        ) {
          this.seen[term] = this.stamp;
          found += 1;
          if (found === this.size) return true;
        }
      }
    }
    return false;
  }
}
