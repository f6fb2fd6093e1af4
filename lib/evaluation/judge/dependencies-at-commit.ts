import type { Session } from "../../trace/model";
import { AhoCorasick } from "./aho-corasick";
import { isStandalone } from "./candidates";
import { findConstraints } from "./constraints";
import { MAX_OCCURRENCES, OWN_CHOICE_KINDS, planted, prefixTexts, rank, sharedSpanValue, type PrefixText } from "./dependencies";
import type { SessionDependencyIndex } from "./session-dependency-index";
import { lowerBound } from "./span-windows";
import { DEPENDENCY_KINDS, type Dependency, type DependencySet, type JudgeIndex, type PartRef } from "./types";

/** Where the rollout judges a commit: the working session, its object index, the cut, and where the cut sits in the original session. */
export interface CommitCut {
  session: Session;
  index: JudgeIndex;
  cut: number;
  /** Original message index of `session.messages[cut]`. */
  at: number;
}

interface Extra {
  rank: number;
  use: number;
  /** Insertion order after every candidate push: spans (1, serial) then constraints (2, serial). */
  order: number;
}

const ORDER_STEP = 2 ** 32;

/**
 * `extractDependencies` at a commit of a whole-session rollout, read from the session's index
 * (`buildSessionDependencyIndex`) instead of the continuation: the working session holds the
 * committed head and original messages before `cut`, and from `cut` on it *is* the original
 * session from message `at` on (only the prefix of `session` is read). The same set as
 * `extractDependencies` on that whole working session: dependencies in the same order with the same
 * fields (message indexes in the working session's numbering), the same stats.
 *
 * Cost: the prefix (prefix texts, one scan of the session's candidate automaton, the shared-span
 * corpus), plus, per candidate found in the prefix, binary searches over its uses and
 * re-discoveries, plus the continuation's uses that share a ≥ `minSharedSpan` window with the
 * prefix, plus — only for values no assistant use ever produced as a candidate (long shared spans,
 * constraint sentences) — the re-discovery texts up to the last such value's first use, or once to
 * the session's end per value when that is further than the prefix is long (late-rediscoveries.ts).
 */
export function dependenciesAtCommit(ix: SessionDependencyIndex, input: CommitCut): DependencySet {
  const { session, cut, at } = input;
  const offset = at - cut;
  const u0 = ix.firstUseFrom[at]!;
  const prefix = prefixTexts(session, cut);
  // The first push of a value at or after u0 (-1: no candidate use from here), cached per cut.
  const firstPush = new Map<number, number>();
  const pushFrom = (v: number): number => {
    let j = firstPush.get(v);
    if (j === undefined) {
      const uses = ix.pushUse[v]!;
      j = lowerBound(uses, 0, uses.length, u0);
      if (j === uses.length) j = -1;
      firstPush.set(v, j);
    }
    return j;
  };
  const extras = new Map<string, Extra>();
  const addExtra = (value: string, kindRank: number, use: number, order: number) => {
    const v = ix.valueId.get(value);
    if (v !== undefined && pushFrom(v) >= 0) return; // a candidate from here on: its use comes first, its rank is lower
    const known = extras.get(value);
    if (!known) extras.set(value, { rank: kindRank, use, order });
    else known.rank = Math.min(known.rank, kindRank);
  };
  if (u0 < ix.uses.length) {
    const sources = prefix.filter((p) => p.isSource).flatMap((p) => p.segments);
    ix.spans.spansFrom(ix.firstQueryOfUse[u0]!, sources).forEach((span, s) => {
      const value = sharedSpanValue(ix.spans.queries[span.query]!, span.start, span.end, ix.minSharedSpan, ix.maxSpanLength);
      if (value !== undefined) addExtra(value, rank("verbatim"), ix.queryUse[span.query]!, ORDER_STEP + s);
    });
    findConstraints(session.messages, cut).forEach((constraint, c) => {
      let first = Infinity;
      for (const word of constraint.words) {
        const list = ix.wordUses.get(word);
        if (!list) continue;
        const i = lowerBound(list, 0, list.length, u0);
        if (i < list.length) first = Math.min(first, list[i]!);
      }
      if (first !== Infinity) addExtra(constraint.sentence, rank("constraint"), first, 2 * ORDER_STEP + c);
    });
  }

  // Pending values: candidates with a use from u0 on (ids ≥ 0) and extras; their kind rank.
  const rankOf = (v: number): number => {
    const j = pushFrom(v);
    const extra = extras.get(ix.values[v]!);
    return Math.min(j >= 0 ? ix.pushMinRank[v]![j]! : 99, extra?.rank ?? 99);
  };
  const onlyExtras = [...extras.keys()].filter((value) => !ix.valueId.has(value));
  const found = scanPrefix(ix, prefix, onlyExtras, extras, (v) => (pushFrom(v) >= 0 || extras.has(ix.values[v]!) ? rankOf(v) : -1));

  const stats = { candidates: ix.valuesLiveFrom[u0]! + extras.size, notInPrefix: 0, rediscovered: 0, common: 0, ownCommand: 0 };
  stats.notInPrefix = stats.candidates - found.size;
  const kept: { d: Omit<Dependency, "id">; order: number }[] = [];
  const unindexed: { value: string; kind: Dependency["kind"]; usedAt: number; keep: () => void }[] = [];
  const nextRequest = ix.nextRequest[at]!;
  for (const [key, occ] of found) {
    const v = typeof key === "number" ? key : -1;
    const value = v >= 0 ? ix.values[v]! : (key as string);
    const extra = extras.get(value);
    const j = v >= 0 ? pushFrom(v) : -1;
    const kindRank = v >= 0 ? rankOf(v) : extra!.rank;
    const kind = DEPENDENCY_KINDS[kindRank]!;
    const use = ix.uses[j >= 0 ? ix.pushUse[v]![j]! : extra!.use]!;
    const order = j >= 0 ? ix.pushSerial[v]![j]! : extra!.order;
    if (kind === "identifier" && occ.parts > ix.rareIdentifierParts) {
      stats.common++;
      continue;
    }
    if (occ.sourceParts === 0 && OWN_CHOICE_KINDS.has(kind)) {
      stats.ownCommand++;
      continue;
    }
    const usedAt: PartRef = { message: use.ref.message - offset, part: use.ref.part };
    const keep = () =>
      kept.push({
        d: {
          value,
          kind,
          plantedAt: planted(input.index, occ.refs[0]!),
          alsoAt: occ.refs.slice(1),
          prefixParts: occ.parts,
          usedAt,
          usedBeforeNextRequest: use.ref.message < nextRequest,
        },
        order,
      });
    if (v < 0) {
      unindexed.push({ value, kind, usedAt: use.ref.message, keep });
      continue;
    }
    const rediscovered = Math.min(firstAtOrAfter(ix.wholeAt[v]!, at), kind === "url" ? firstAtOrAfter(ix.bareAt[v]!, at) : Infinity);
    if (rediscovered <= use.ref.message) stats.rediscovered++;
    else keep();
  }
  if (unindexed.length > 0) {
    const budget = prefix.reduce((sum, p) => sum + p.text.length, 0);
    const first = ix.late.firstAtOrAfter(
      at,
      unindexed.map((u) => ({ value: u.value, kind: u.kind, until: u.usedAt })),
      budget,
    );
    unindexed.forEach((u, i) => (first[i]! <= u.usedAt ? stats.rediscovered++ : u.keep()));
  }

  kept.sort(
    (a, b) =>
      a.d.usedAt.message - b.d.usedAt.message || a.d.usedAt.part - b.d.usedAt.part || a.d.plantedAt.message - b.d.plantedAt.message || a.order - b.order,
  );
  return {
    sessionId: session.id,
    cut,
    dependencies: kept.map((k, i) => ({ id: `dep-${i + 1}`, ...k.d })),
    futureAssistantSteps: ix.stepsFrom[at]!,
    futureAssistantChars: ix.charsFrom[at]!,
    stats,
  };
}

interface Occurrences {
  refs: PartRef[];
  parts: number;
  sourceParts: number;
}

/**
 * `scanPrefix` of dependencies.ts over the pending values: the session's automaton (a match counts
 * when `rankOf` says the value is pending, with its kind for `isStandalone`), plus a small one over
 * the extras no candidate produced. Keys: value ids, or the extra's text.
 */
function scanPrefix(
  ix: SessionDependencyIndex,
  prefix: readonly PrefixText[],
  onlyExtras: readonly string[],
  extras: ReadonlyMap<string, Extra>,
  rankOf: (v: number) => number,
): Map<number | string, Occurrences> {
  const found = new Map<number | string, Occurrences>();
  const lastPart = new Map<number | string, number>();
  const record = (key: number | string, serial: number, ref: PartRef, isSource: boolean) => {
    if (lastPart.get(key) === serial) return;
    lastPart.set(key, serial);
    let entry = found.get(key);
    if (!entry) found.set(key, (entry = { refs: [], parts: 0, sourceParts: 0 }));
    entry.parts++;
    if (isSource) entry.sourceParts++;
    if (entry.refs.length <= MAX_OCCURRENCES) entry.refs.push(ref);
  };
  const small = onlyExtras.length > 0 ? new AhoCorasick(onlyExtras) : undefined;
  const rankCache = new Map<number, number>();
  prefix.forEach(({ ref, text, isSource }, serial) => {
    ix.matcher.scan(text, (v, start) => {
      let r = rankCache.get(v);
      if (r === undefined) rankCache.set(v, (r = rankOf(v)));
      if (r < 0 || !isStandalone(text, start, start + ix.values[v]!.length, DEPENDENCY_KINDS[r]!)) return;
      record(v, serial, ref, isSource);
    });
    small?.scan(text, (i, start) => {
      const value = onlyExtras[i]!;
      if (!isStandalone(text, start, start + value.length, DEPENDENCY_KINDS[extras.get(value)!.rank]!)) return;
      record(value, serial, ref, isSource);
    });
  });
  return found;
}

function firstAtOrAfter(sorted: Int32Array, message: number): number {
  const i = lowerBound(sorted, 0, sorted.length, message);
  return i < sorted.length ? sorted[i]! : Infinity;
}
