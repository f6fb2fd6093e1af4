import { forEachWindowKey, type SharedSpan } from "./shared-spans";

/**
 * `findSharedSpans` for many corpora against one fixed list of queries, each call restricted to the
 * queries from some index on: the whole-session rollout asks, at every commit, which spans the
 * continuation's assistant steps (the queries from that commit on) share with the commit's prefix.
 *
 * Built once (linear in the queries): every `minLength`-character window of every query gets a slot
 * per distinct fingerprint (the same rolling hashes as `findSharedSpans`), and each slot lists the
 * queries holding it, ascending. A call scans its corpus once, records each slot's first corpus
 * location, collects the queries from `firstQuery` on that hold a located slot, and walks only
 * those, exactly as `findSharedSpans` walks every query: a query with no located window yields no
 * span there, so the result is identical, query by query. Cost per call: the corpus texts the last
 * call did not read (hashed; the others reuse their windows that some query holds), plus the located
 * slots' later queries, plus the walks of the queries that share a window with the corpus.
 */
export class SpanWindowIndex {
  private readonly slotOf = new Map<number, number>();
  /** Slot of each window, query by query (`windowStart[q]` is query q's first window). */
  private readonly windowSlot: Int32Array;
  private readonly windowStart: Int32Array;
  /** The queries holding each slot, ascending: `slotQueries[slotStart[s] .. slotStart[s + 1])`. */
  private readonly slotQueries: Int32Array;
  private readonly slotStart: Int32Array;
  private stamp = 0;
  private readonly locStamp: Int32Array;
  private readonly locText: Int32Array;
  private readonly locStart: Int32Array;
  private readonly queryStamp: Int32Array;
  /**
   * The windows of each corpus text of the last call that some query holds (start, slot pairs): a
   * rollout's next commit reads mostly the same texts again (the head it carries), hashed once.
   */
  private hitsOfLastCall = new Map<string, Int32Array>();

  constructor(
    readonly queries: readonly string[],
    readonly minLength: number,
  ) {
    const k = minLength;
    this.windowStart = new Int32Array(queries.length + 1);
    queries.forEach((text, q) => (this.windowStart[q + 1] = this.windowStart[q]! + Math.max(0, text.length - k + 1)));
    this.windowSlot = new Int32Array(this.windowStart[queries.length]!);
    const counts: number[] = [];
    const lastQuery: number[] = [];
    queries.forEach((text, q) => {
      const from = this.windowStart[q]!;
      forEachWindowKey(text, k, (start, key) => {
        let slot = this.slotOf.get(key);
        if (slot === undefined) {
          this.slotOf.set(key, (slot = counts.length));
          counts.push(0);
          lastQuery.push(-1);
        }
        this.windowSlot[from + start] = slot;
        if (lastQuery[slot] !== q) ((lastQuery[slot] = q), counts[slot]!++);
      });
    });
    const slots = counts.length;
    this.slotStart = new Int32Array(slots + 1);
    for (let s = 0; s < slots; s++) this.slotStart[s + 1] = this.slotStart[s]! + counts[s]!;
    this.slotQueries = new Int32Array(this.slotStart[slots]!);
    const fill = Int32Array.from(this.slotStart.subarray(0, slots));
    lastQuery.fill(-1);
    queries.forEach((_, q) => {
      for (let w = this.windowStart[q]!; w < this.windowStart[q + 1]!; w++) {
        const slot = this.windowSlot[w]!;
        if (lastQuery[slot] !== q) ((lastQuery[slot] = q), (this.slotQueries[fill[slot]!++] = q));
      }
    });
    this.locStamp = new Int32Array(slots);
    this.locText = new Int32Array(slots);
    this.locStart = new Int32Array(slots);
    this.queryStamp = new Int32Array(queries.length);
  }

  /** `findSharedSpans(queries.slice(firstQuery), corpus, minLength)`, with query indexes into the whole list. */
  spansFrom(firstQuery: number, corpus: readonly string[]): SharedSpan[] {
    const k = this.minLength;
    const stamp = ++this.stamp;
    const touched: number[] = [];
    const seen = new Map<string, Int32Array>();
    corpus.forEach((text, c) => {
      let hits = seen.get(text) ?? this.hitsOfLastCall.get(text);
      if (!hits) {
        const found: number[] = [];
        forEachWindowKey(text, k, (start, key) => {
          const slot = this.slotOf.get(key);
          if (slot !== undefined) found.push(start, slot);
        });
        hits = Int32Array.from(found);
      }
      seen.set(text, hits);
      for (let h = 0; h < hits.length; h += 2) {
        const start = hits[h]!;
        const slot = hits[h + 1]!;
        if (this.locStamp[slot] === stamp) continue;
        this.locStamp[slot] = stamp;
        this.locText[slot] = c;
        this.locStart[slot] = start;
        const end = this.slotStart[slot + 1]!;
        for (let i = lowerBound(this.slotQueries, this.slotStart[slot]!, end, firstQuery); i < end; i++) {
          const q = this.slotQueries[i]!;
          if (this.queryStamp[q] !== stamp) ((this.queryStamp[q] = stamp), touched.push(q));
        }
      }
    });
    this.hitsOfLastCall = seen;
    touched.sort((a, b) => a - b);
    const spans: SharedSpan[] = [];
    for (const q of touched) {
      const text = this.queries[q]!;
      const from = this.windowStart[q]!;
      const windows = this.windowStart[q + 1]! - from;
      let p = 0;
      while (p < windows) {
        const slot = this.windowSlot[from + p]!;
        if (this.locStamp[slot] !== stamp) {
          p++;
          continue;
        }
        const c = this.locText[slot]!;
        const source = corpus[c]!;
        const at = this.locStart[slot]!;
        let length = 0;
        while (p + length < text.length && at + length < source.length && text.charCodeAt(p + length) === source.charCodeAt(at + length)) length++;
        if (length < k) {
          p++;
          continue;
        }
        spans.push({ query: q, start: p, end: p + length, corpus: c, corpusStart: at });
        p += length;
      }
    }
    return spans;
  }
}

/** First index in `sorted[from, to)` holding a value ≥ `target` (`to` when none). */
export function lowerBound(sorted: ArrayLike<number>, from: number, to: number, target: number): number {
  let lo = from,
    hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
