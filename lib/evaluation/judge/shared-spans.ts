/**
 * Long verbatim spans a future step shares with the prefix (seed 000: "exact sentences, quotes,
 * transcript spans … requested later verbatim"), found without comparing every future text against
 * every prefix text.
 *
 * Method (linear): every `minLength`-character window of the query texts (the future's assistant
 * steps) is fingerprinted with two rolling polynomial hashes and put in one Map. The corpus (the
 * prefix) is scanned once with the same rolling hash; a window's first corpus location is recorded.
 * Then each query is walked left to right: at a window with a location, the match is extended
 * character by character (which also rejects hash collisions) and the walk resumes after it. Cost:
 * O(query + corpus) hashing plus O(query) comparison; memory O(query windows).
 */
export interface SharedSpan {
  /** Index of the query text and the span inside it. */
  query: number;
  start: number;
  end: number;
  /** Index of the corpus text and where the span starts in it. */
  corpus: number;
  corpusStart: number;
}

const P1 = 67_108_859;
const P2 = 67_108_837;
const B1 = 65_599;
const B2 = 40_503;

export function findSharedSpans(queries: readonly string[], corpus: readonly string[], minLength = 40): SharedSpan[] {
  const k = minLength;
  const pow1 = powMod(B1, k - 1, P1);
  const pow2 = powMod(B2, k - 1, P2);
  const windowIds = new Map<number, number>();
  const windowsOfQuery: Int32Array[] = [];
  for (const text of queries) {
    const ids = new Int32Array(Math.max(0, text.length - k + 1)).fill(-1);
    rolling(text, k, pow1, pow2, (start, key) => {
      let id = windowIds.get(key);
      if (id === undefined) windowIds.set(key, (id = windowIds.size));
      ids[start] = id;
    });
    windowsOfQuery.push(ids);
  }
  if (windowIds.size === 0) return [];
  const locText = new Int32Array(windowIds.size).fill(-1);
  const locStart = new Int32Array(windowIds.size);
  corpus.forEach((text, c) => {
    rolling(text, k, pow1, pow2, (start, key) => {
      const id = windowIds.get(key);
      if (id !== undefined && locText[id] === -1) {
        locText[id] = c;
        locStart[id] = start;
      }
    });
  });

  const spans: SharedSpan[] = [];
  queries.forEach((text, q) => {
    const ids = windowsOfQuery[q]!;
    let p = 0;
    while (p < ids.length) {
      const id = ids[p]!;
      const c = id >= 0 ? locText[id]! : -1;
      if (c < 0) {
        p++;
        continue;
      }
      const source = corpus[c]!;
      const from = locStart[id]!;
      let length = 0;
      while (p + length < text.length && from + length < source.length && text.charCodeAt(p + length) === source.charCodeAt(from + length)) length++;
      if (length < k) {
        p++;
        continue;
      }
      spans.push({ query: q, start: p, end: p + length, corpus: c, corpusStart: from });
      p += length;
    }
  });
  return spans;
}

/**
 * Calls `onWindow(start, key)` for every `k`-character window of `text`, left to right; `key` is the
 * pair of rolling hashes `findSharedSpans` uses (equal windows, equal keys), so an index built with
 * it (`span-windows.ts`) finds exactly the windows `findSharedSpans` would.
 */
export function forEachWindowKey(text: string, k: number, onWindow: (start: number, key: number) => void): void {
  rolling(text, k, powMod(B1, k - 1, P1), powMod(B2, k - 1, P2), onWindow);
}

function rolling(text: string, k: number, pow1: number, pow2: number, onWindow: (start: number, key: number) => void): void {
  if (text.length < k) return;
  let h1 = 0;
  let h2 = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (i >= k) {
      const old = text.charCodeAt(i - k);
      h1 = (h1 - ((old * pow1) % P1) + P1) % P1;
      h2 = (h2 - ((old * pow2) % P2) + P2) % P2;
    }
    h1 = (h1 * B1 + code) % P1;
    h2 = (h2 * B2 + code) % P2;
    if (i >= k - 1) onWindow(i - k + 1, h1 * 67_108_864 + h2);
  }
}

function powMod(base: number, exponent: number, modulus: number): number {
  let result = 1;
  for (let i = 0; i < exponent; i++) result = (result * base) % modulus;
  return result;
}
