import type { JudgeIndex } from "./types";
import type { Session } from "../../trace/model";
import { AhoCorasick } from "./aho-corasick";
import { extractCandidates, isStandalone, isWordCode, type Candidate } from "./candidates";
import { findConstraints } from "./constraints";
import { splitFuture, type FutureText } from "./future";
import { readableSegments } from "./part-texts";
import { findSharedSpans } from "./shared-spans";
import { ValueForms } from "./value-forms";
import { DEPENDENCY_KINDS, type Dependency, type DependencyKind, type DependencySet, type PartRef, type PlantedRef } from "./types";

/**
 * Future dependencies at a cut (seed 000's judge contract: "identify concrete dependencies in future
 * turns"): values that occur in the prefix and that a future assistant step used before any future
 * tool result or user message supplied them again. A value the future re-discovered first could be
 * re-found by the agent, so losing it costs nothing.
 *
 * Bounded work, linear in the session (no prefix × future substring scans):
 * 1. one pass over the future's assistant steps collects candidates (regexes, quoted spans) into a
 *    Map keyed by value, with the first use; a word Map serves the constraint check;
 * 2. long shared spans come from rolling-hash fingerprints (`findSharedSpans`, O(prefix + future));
 * 3. one Aho–Corasick automaton over all candidate values scans the prefix once (occurrences) and
 *    the future's tool results and user messages once (first re-discovery).
 */
export interface ExtractOptions {
  /** Shortest exact span shared with the prefix that counts as verbatim (default 40). */
  minSharedSpan?: number;
  /** Longer shared spans keep their first `maxSpanLength` characters (default 240). */
  maxSpanLength?: number;
  /** An identifier is a dependency only when at most this many prefix parts contain it (default 3). */
  rareIdentifierParts?: number;
}

/** Prefix occurrences kept per dependency besides the first (culprit lookup needs only a few). */
export const MAX_OCCURRENCES = 16;

interface Pending extends Candidate {
  usedAt: PartRef;
}

export function extractDependencies(session: Session, index: JudgeIndex, cut: number, options: ExtractOptions = {}): DependencySet {
  const future = splitFuture(session, cut);
  const prefix = prefixTexts(session, cut);
  const pending = new Map<string, Pending>();
  const add = (candidate: Candidate, usedAt: PartRef) => {
    const known = pending.get(candidate.value);
    if (!known) pending.set(candidate.value, { ...candidate, usedAt });
    else if (rank(candidate.kind) < rank(known.kind)) known.kind = candidate.kind;
  };
  // A code identifier the agent only talks about is narrative; one it writes into a call (an edit,
  // a command, a query) is relied on. Other kinds count from prose too (a quoted id, an amount).
  for (const use of future.uses) extractCandidates(use.text, (c) => (c.kind !== "identifier" || use.isCall) && add(c, use.ref));
  addSharedSpans(future.uses, prefix, options, add);
  addConstraints(session, cut, future.uses, add);

  const values = [...pending.keys()];
  const kinds = values.map((v) => pending.get(v)!.kind);
  const matcher = new AhoCorasick(values);
  const occurrences = scanPrefix(matcher, kinds, prefix);
  const rediscovered = firstRediscovery(values, kinds, future.rediscoveries);

  const stats = { candidates: values.length, notInPrefix: 0, rediscovered: 0, common: 0, ownCommand: 0 };
  const rare = options.rareIdentifierParts ?? 3;
  const kept: Omit<Dependency, "id">[] = [];
  values.forEach((value, i) => {
    const { kind, usedAt } = pending.get(value)!;
    const found = occurrences[i];
    if (!found) return void stats.notInPrefix++;
    if (kind === "identifier" && found.parts > rare) return void stats.common++;
    if (found.sourceParts === 0 && OWN_CHOICE_KINDS.has(kind)) return void stats.ownCommand++;
    if (rediscovered[i]! <= usedAt.message) return void stats.rediscovered++;
    kept.push({
      value,
      kind,
      plantedAt: planted(index, found.refs[0]!),
      alsoAt: found.refs.slice(1),
      prefixParts: found.parts,
      usedAt,
      usedBeforeNextRequest: usedAt.message < future.nextRequest,
    });
  });
  kept.sort((a, b) => a.usedAt.message - b.usedAt.message || a.usedAt.part - b.usedAt.part || a.plantedAt.message - b.plantedAt.message);
  return {
    sessionId: session.id,
    cut,
    dependencies: kept.map((d, i) => ({ id: `dep-${i + 1}`, ...d })),
    futureAssistantSteps: future.assistantSteps,
    futureAssistantChars: future.assistantChars,
    stats,
  };
}

/** A kind's rank: a value used as several kinds keeps the lowest (a url quoted is still a url). */
export const rank = (kind: DependencyKind) => DEPENDENCY_KINDS.indexOf(kind);

/** A prefix part as the judge reads it, with its pieces (`readableSegments`). */
export interface PrefixText {
  ref: PartRef;
  text: string;
  segments: string[];
  /** False for a short tool call the agent typed itself: a command line is not source wording. */
  isSource: boolean;
}

/**
 * Kinds that need one prefix occurrence outside the agent's own short tool calls: a timeout, a flag
 * value or a command prefix the agent typed before is its own choice, not something it learned.
 * Locators (url, path, id) do not: the path a file was written to is needed even if only the
 * agent's calls ever named it.
 */
export const OWN_CHOICE_KINDS: ReadonlySet<DependencyKind> = new Set(["number", "identifier", "verbatim"]);

/** Tool-call arguments at least this long are bodies (a written file, a report), hence sources. */
export const MIN_SOURCE_CALL_CHARS = 400;

/** Every part before `cut`, read as the judge reads it (`readableSegments`), in order. */
export function prefixTexts(session: Session, cut: number): PrefixText[] {
  const out: PrefixText[] = [];
  for (let m = 0; m < cut; m++) {
    session.messages[m]!.parts.forEach((part, p) => {
      const segments = readableSegments(part);
      const text = segments.join("\n");
      out.push({ ref: { message: m, part: p }, text, segments, isSource: part.type !== "tool_call" || text.length >= MIN_SOURCE_CALL_CHARS });
    });
  }
  return out;
}

function addSharedSpans(uses: FutureText[], prefix: PrefixText[], options: ExtractOptions, add: (c: Candidate, at: PartRef) => void): void {
  const min = options.minSharedSpan ?? 40;
  const max = options.maxSpanLength ?? 240;
  const queries = uses.flatMap((use) => use.segments.map((text) => ({ text, ref: use.ref })));
  const sources = prefix.filter((p) => p.isSource).flatMap((p) => p.segments);
  for (const span of findSharedSpans(
    queries.map((q) => q.text),
    sources,
    min,
  )) {
    const query = queries[span.query]!;
    const value = sharedSpanValue(query.text, span.start, span.end, min, max);
    if (value !== undefined) add({ kind: "verbatim", value }, query.ref);
  }
}

/** The verbatim value of a shared span: whole words, its first `max` characters; undefined when too short or wordless. */
export function sharedSpanValue(text: string, start: number, end: number, min: number, max: number): string | undefined {
  const value = wholeWords(text, start, Math.min(end, start + max));
  return value.length >= min && (value.match(/[A-Za-z0-9]/g)?.length ?? 0) >= 12 ? value : undefined;
}

/**
 * A shared span cut back to whole words, without edge punctuation: the match may start or end
 * inside a word ("eport: https://…"). Still a substring of both texts, so still exact.
 */
function wholeWords(text: string, start: number, end: number): string {
  while (start < end && start > 0 && isWordCode(text.charCodeAt(start - 1)) && isWordCode(text.charCodeAt(start))) start++;
  while (end > start && end < text.length && isWordCode(text.charCodeAt(end)) && isWordCode(text.charCodeAt(end - 1))) end--;
  return text
    .slice(start, end)
    .replace(/^[\s.,;:!?)\]}>-]+/, "")
    .replace(/[\s,;:([{<-]+$/, "");
}

function addConstraints(session: Session, cut: number, uses: FutureText[], add: (c: Candidate, at: PartRef) => void): void {
  const constraints = findConstraints(session.messages, cut);
  if (constraints.length === 0) return;
  const firstUse = new Map<string, PartRef>();
  for (const use of uses) {
    for (const m of use.text.matchAll(/[A-Za-z][A-Za-z-]{4,}/g)) {
      const word = m[0].toLowerCase().replace(/-+$/, "");
      if (!firstUse.has(word)) firstUse.set(word, use.ref);
    }
  }
  for (const constraint of constraints) {
    const refs = constraint.words.map((w) => firstUse.get(w)).filter((r): r is PartRef => r !== undefined);
    if (refs.length === 0) continue;
    refs.sort((a, b) => a.message - b.message || a.part - b.part);
    add({ kind: "constraint", value: constraint.sentence }, refs[0]!);
  }
}

interface Occurrences {
  refs: PartRef[];
  parts: number;
  /** Parts that are sources (see `PrefixText.isSource`). */
  sourceParts: number;
}

function scanPrefix(matcher: AhoCorasick, kinds: DependencyKind[], prefix: PrefixText[]): (Occurrences | undefined)[] {
  const found: (Occurrences | undefined)[] = new Array(kinds.length);
  const lastPart = new Int32Array(kinds.length).fill(-1);
  prefix.forEach(({ ref, text, isSource }, serial) => {
    matcher.scan(text, (i, start) => {
      if (lastPart[i] === serial || !isStandalone(text, start, start + matcher.patterns[i]!.length, kinds[i]!)) return;
      lastPart[i] = serial;
      const entry = (found[i] ??= { refs: [], parts: 0, sourceParts: 0 });
      entry.parts++;
      if (isSource) entry.sourceParts++;
      if (entry.refs.length <= MAX_OCCURRENCES) entry.refs.push(ref);
    });
  });
  return found;
}

/**
 * Message index of the first future tool result or user message showing each value (Infinity if
 * none), in any of its forms (value-forms.ts), word-bounded: a number the future's own diff printed
 * as `@@ -242,7` was seen by the agent before it said "line 242"; a span is seen again when a re-read
 * prints its lines after line numbers — at the message where its last line has shown.
 */
function firstRediscovery(values: readonly string[], kinds: DependencyKind[], texts: FutureText[]): number[] {
  const forms = new ValueForms(values, kinds);
  const first = new Array<number>(kinds.length).fill(Infinity);
  const lines = new Map<number, Set<number>>();
  for (const { ref, text } of texts) {
    forms.scan(
      text,
      false,
      (i) => {
        if (first[i] === Infinity) first[i] = ref.message;
      },
      (i, line) => {
        if (first[i] !== Infinity) return;
        const seen = lines.get(i) ?? new Set<number>();
        seen.add(line);
        lines.set(i, seen);
        if (seen.size === forms.lineCounts[i]) first[i] = ref.message;
      },
    );
  }
  return first;
}

/** A prefix part with the context objects holding it (`planted` of a dependency). */
export function planted(index: JudgeIndex, ref: PartRef): PlantedRef {
  const turnId = index.turnOf[ref.message];
  const objectId = index.functionAt.get(`${ref.message}:${ref.part}`) ?? turnId;
  return { ...ref, ...(objectId ? { objectId } : {}), ...(turnId ? { turnId } : {}) };
}
