import type { Session } from "../../trace/model";
import { AhoCorasick } from "./aho-corasick";
import { extractCandidates, isWordBounded } from "./candidates";
import { rank, type ExtractOptions } from "./dependencies";
import { isNextRequest, splitFuture, type FutureText } from "./future";
import { LateRediscoveries } from "./late-rediscoveries";
import { SpanWindowIndex } from "./span-windows";

/**
 * Everything `extractDependencies` reads of a future that does not depend on where the future
 * starts, computed once for a whole session, so that the rollout (one judged cut per commit, the
 * future always the original session from the commit on) pays each commit its prefix and its
 * answer instead of the whole continuation (`dependenciesAtCommit` reads it):
 * - the assistant uses of the whole session (`splitFuture` at 0) and, per candidate value, the uses
 *   it occurs in with their kinds: the first use from message k on is a binary search, the kind the
 *   lowest rank over the uses from there (suffix minima);
 * - per value, the messages where a tool result or user message shows it (the value, or a URL
 *   without its scheme, word-bounded — the `ValueForms` rules; candidate values hold no newline, so
 *   no line form applies): the first re-discovery from k on is a binary search;
 * - per content word, the uses that contain it (constraints), and the windows of every use's
 *   segments (`SpanWindowIndex`, shared verbatim spans);
 * - suffix counts of assistant steps and characters, and the next user request from each message.
 * Built in one pass over the session plus one automaton pass over its re-discovery texts.
 */
export interface SessionDependencyIndex {
  session: Session;
  minSharedSpan: number;
  maxSpanLength: number;
  rareIdentifierParts: number;
  uses: FutureText[];
  /** Per message m (and m = n): the first use at or after m. */
  firstUseFrom: Int32Array;
  /** The segments of every use, in order (`SpanWindowIndex` queries), and each use's first. */
  queryUse: Int32Array;
  firstQueryOfUse: Int32Array;
  spans: SpanWindowIndex;
  /** Distinct candidate values (pushed by `extractCandidates` on some use) and their ids. */
  values: string[];
  valueId: Map<string, number>;
  /** Per value, its pushes in order: the use, a session-wide push serial (insertion order), and the suffix minimum of kind ranks. */
  pushUse: Int32Array[];
  pushSerial: Int32Array[];
  pushMinRank: Int8Array[];
  /** Number of values whose last push is at or after each use (and at uses.length: 0). */
  valuesLiveFrom: Int32Array;
  /** One automaton over `values` (the prefix scan). */
  matcher: AhoCorasick;
  /** Per value, ascending distinct messages of re-discovery texts showing it, whole or as a bare URL. */
  wholeAt: Int32Array[];
  bareAt: Int32Array[];
  /** Re-discovery texts of the session in order, and per message m the first at or after m. */
  rediscoveries: FutureText[];
  firstRediscoveryFrom: Int32Array;
  /** Re-discoveries of the values found per commit (spans, constraints), scanned at most once past a commit's budget. */
  late: LateRediscoveries;
  /** Per lower-cased content word (constraints' rule), the uses containing it, ascending. */
  wordUses: Map<string, number[]>;
  /** Per message m: the first real user request at or after m (n when none), and assistant steps and characters from m on. */
  nextRequest: Int32Array;
  stepsFrom: Float64Array;
  charsFrom: Float64Array;
}

/** The index of `session` (the original, whole): one pass over its messages, one automaton pass over its re-discovery texts. */
export function buildSessionDependencyIndex(session: Session, options: ExtractOptions = {}): SessionDependencyIndex {
  const n = session.messages.length;
  const future = splitFuture(session, 0);
  const { uses, rediscoveries } = future;

  const firstUseFrom = firstFrom(uses, n);
  const firstRediscoveryFrom = firstFrom(rediscoveries, n);
  const queryUse: number[] = [];
  const queries: string[] = [];
  const firstQueryOfUse = new Int32Array(uses.length + 1);
  uses.forEach((use, u) => {
    firstQueryOfUse[u] = queries.length;
    for (const segment of use.segments) (queryUse.push(u), queries.push(segment));
  });
  firstQueryOfUse[uses.length] = queries.length;
  const minSharedSpan = options.minSharedSpan ?? 40;

  const values: string[] = [];
  const valueId = new Map<string, number>();
  const pushes: { use: number[]; serial: number[]; rank: number[] }[] = [];
  let serial = 0;
  const wordUses = new Map<string, number[]>();
  uses.forEach((use, u) => {
    extractCandidates(use.text, (c) => {
      if (c.kind === "identifier" && !use.isCall) return;
      let id = valueId.get(c.value);
      if (id === undefined) {
        valueId.set(c.value, (id = values.length));
        values.push(c.value);
        pushes.push({ use: [], serial: [], rank: [] });
      }
      const of = pushes[id]!;
      of.use.push(u);
      of.serial.push(serial++);
      of.rank.push(rank(c.kind));
    });
    for (const m of use.text.matchAll(/[A-Za-z][A-Za-z-]{4,}/g)) {
      const word = m[0].toLowerCase().replace(/-+$/, "");
      const list = wordUses.get(word);
      if (!list) wordUses.set(word, [u]);
      else if (list[list.length - 1] !== u) list.push(u);
    }
  });
  const liveCounts = new Int32Array(uses.length + 1);
  const pushMinRank = pushes.map((of) => {
    const minimum = new Int8Array(of.rank.length);
    for (let i = of.rank.length - 1, low = 127; i >= 0; i--) minimum[i] = low = Math.min(low, of.rank[i]!);
    liveCounts[of.use[of.use.length - 1]!]!++;
    return minimum;
  });
  for (let u = uses.length - 1; u >= 0; u--) liveCounts[u]! += liveCounts[u + 1]!;

  const { wholeAt, bareAt } = rediscoveryMessages(values, rediscoveries);
  const nextRequest = new Int32Array(n + 1).fill(n);
  for (let m = n - 1; m >= 0; m--) nextRequest[m] = isNextRequest(session.messages[m]!) ? m : nextRequest[m + 1]!;
  const stepsFrom = new Float64Array(n + 1);
  const charsFrom = new Float64Array(n + 1);
  const counted = new Set(uses.map((u) => u.ref.message));
  for (const use of uses) charsFrom[use.ref.message]! += use.text.length;
  for (let m = n - 1; m >= 0; m--) {
    stepsFrom[m] = stepsFrom[m + 1]! + (counted.has(m) ? 1 : 0);
    charsFrom[m]! += charsFrom[m + 1]!;
  }
  return {
    session,
    minSharedSpan,
    maxSpanLength: options.maxSpanLength ?? 240,
    rareIdentifierParts: options.rareIdentifierParts ?? 3,
    uses,
    firstUseFrom,
    queryUse: Int32Array.from(queryUse),
    firstQueryOfUse,
    spans: new SpanWindowIndex(queries, minSharedSpan),
    values,
    valueId,
    pushUse: pushes.map((of) => Int32Array.from(of.use)),
    pushSerial: pushes.map((of) => Int32Array.from(of.serial)),
    pushMinRank,
    valuesLiveFrom: liveCounts,
    matcher: new AhoCorasick(values),
    wholeAt,
    bareAt,
    rediscoveries,
    firstRediscoveryFrom,
    late: new LateRediscoveries(rediscoveries, firstRediscoveryFrom),
    wordUses,
    nextRequest,
    stepsFrom,
    charsFrom,
  };
}

/** Per message m (0..n): the index of the first text whose message is at or after m. */
function firstFrom(texts: readonly FutureText[], n: number): Int32Array {
  const out = new Int32Array(n + 1).fill(texts.length);
  for (let i = texts.length - 1; i >= 0; i--) out[texts[i]!.ref.message] = i;
  for (let m = n - 1; m >= 0; m--) out[m] = Math.min(out[m]!, out[m + 1]!);
  return out;
}

/**
 * The forms `ValueForms` gives a candidate value (itself; a URL also without its scheme, when at
 * least 6 characters remain), found word-bounded in the re-discovery texts: per value, the messages
 * showing each form. Which forms count depends on the kind a cut gives the value (a bare URL counts
 * only for a `url`), so they are kept apart.
 */
function rediscoveryMessages(values: readonly string[], texts: readonly FutureText[]): { wholeAt: Int32Array[]; bareAt: Int32Array[] } {
  const patterns: string[] = [];
  const forms: { value: number; bare: boolean }[][] = [];
  const byPattern = new Map<string, number>();
  const add = (pattern: string, value: number, bare: boolean) => {
    let at = byPattern.get(pattern);
    if (at === undefined) (byPattern.set(pattern, (at = patterns.length)), patterns.push(pattern), forms.push([]));
    forms[at]!.push({ value, bare });
  };
  values.forEach((value, i) => {
    add(value, i, false);
    const bare = value.replace(/^https?:\/\//, "");
    if (bare !== value && bare.length >= 6) add(bare, i, true);
  });
  const whole: number[][] = values.map(() => []);
  const bare: number[][] = values.map(() => []);
  const automaton = new AhoCorasick(patterns);
  for (const { ref, text } of texts) {
    automaton.scan(text, (pattern, start) => {
      if (!isWordBounded(text, start, start + patterns[pattern]!.length)) return;
      for (const form of forms[pattern]!) {
        const list = (form.bare ? bare : whole)[form.value]!;
        if (list[list.length - 1] !== ref.message) list.push(ref.message);
      }
    });
  }
  return { wholeAt: whole.map((l) => Int32Array.from(l)), bareAt: bare.map((l) => Int32Array.from(l)) };
}
