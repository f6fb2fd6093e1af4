/**
 * Multi-pattern exact matching (Aho–Corasick) over UTF-16 code units.
 *
 * Why: the dependency judge looks for thousands of candidate values (every URL, path, id, number
 * and verbatim span the future used) inside a prefix of up to a few megabytes, then again inside
 * every policy's view. Searching each value with `indexOf` is O(values × text); one automaton pass
 * is O(text + patterns + matches), so a replay stays linear in the session.
 *
 * Transitions: a dense table for the root (most failure chains end there) and one Map keyed
 * `node × 65536 + code` for the rest, which keeps memory proportional to the total pattern length.
 */
export type MatchHandler = (pattern: number, start: number) => void;

const ALPHABET = 65_536;

export class AhoCorasick {
  private readonly rootEdges = new Int32Array(ALPHABET);
  private readonly edges = new Map<number, number>();
  private readonly fail: number[] = [0];
  /** Pattern ending exactly at a node, or -1. Duplicate patterns share the first index. */
  private readonly out: number[] = [-1];
  /** Nearest proper suffix node (via failure links) that ends a pattern, or 0. */
  private readonly dict: number[] = [0];
  private readonly lengths: number[];

  constructor(readonly patterns: readonly string[]) {
    this.lengths = patterns.map((p) => p.length);
    const children: number[][] = [[]];
    const codes: number[] = [0];
    patterns.forEach((pattern, index) => {
      if (pattern.length === 0) return;
      let node = 0;
      for (let i = 0; i < pattern.length; i++) {
        const code = pattern.charCodeAt(i);
        let next = this.child(node, code);
        if (next === 0) {
          next = this.fail.length;
          this.fail.push(0);
          this.out.push(-1);
          this.dict.push(0);
          children.push([]);
          codes.push(code);
          children[node]!.push(next);
          if (node === 0) this.rootEdges[code] = next;
          else this.edges.set(node * ALPHABET + code, next);
        }
        node = next;
      }
      if (this.out[node] === -1) this.out[node] = index;
    });
    const queue: number[] = [...children[0]!];
    for (let head = 0; head < queue.length; head++) {
      const node = queue[head]!;
      for (const next of children[node]!) {
        const code = codes[next]!;
        let f = this.fail[node]!;
        while (f !== 0 && this.child(f, code) === 0) f = this.fail[f]!;
        const target = node === 0 ? 0 : this.child(f, code);
        this.fail[next] = target === next ? 0 : target;
        const fallback = this.fail[next]!;
        this.dict[next] = this.out[fallback]! >= 0 ? fallback : this.dict[fallback]!;
        queue.push(next);
      }
    }
  }

  /** Calls `onMatch(pattern, start)` for every occurrence of every pattern in `text`, left to right by end. */
  scan(text: string, onMatch: MatchHandler): void {
    let node = 0;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      let next = this.child(node, code);
      while (next === 0 && node !== 0) {
        node = this.fail[node]!;
        next = this.child(node, code);
      }
      node = next;
      if (node === 0) continue;
      for (let hit = this.out[node]! >= 0 ? node : this.dict[node]!; hit !== 0; hit = this.dict[hit]!) {
        const pattern = this.out[hit]!;
        onMatch(pattern, i - this.lengths[pattern]! + 1);
      }
    }
  }

  private child(node: number, code: number): number {
    return node === 0 ? this.rootEdges[code]! : (this.edges.get(node * ALPHABET + code) ?? 0);
  }
}
