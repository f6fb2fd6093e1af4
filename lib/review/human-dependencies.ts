import type { ContextIndex } from "../compaction/context/objects";
import { checkView, type CheckViewInput } from "../evaluation/judge/check-view";
import { readableText } from "../evaluation/judge/part-texts";
import type { CheckedDependency, Dependency, DependencyKind } from "../evaluation/judge/types";
import type { Session } from "../trace/model";
import type { DependencyLabel, DependencyType, Span } from "./label-schema";

/**
 * Dependencies a reviewer added by selecting spans, turned into the dependency judge's own
 * `Dependency` shape so they are checked against a projected view by the very same code
 * (`checkView`: one automaton over the view texts, fold pointers and routing) — a human-added
 * dependency is visible, recoverable or missing by exactly the rules a judge candidate is.
 */

/** A span that does not match the session, with where and why. */
export interface SpanProblem {
  labelId: string;
  field: "future" | "prefix";
  message: string;
}

/** Checks that a span names an existing part and that its offsets select exactly its text. */
export function spanProblem(session: Session, span: Span): string | undefined {
  const part = session.messages[span.message]?.parts[span.part];
  if (!part) return `message ${span.message} part ${span.part} does not exist in session ${session.id}`;
  const text = readableText(part);
  if (span.end > text.length) return `end ${span.end} is past the part's ${text.length} characters`;
  if (text.slice(span.start, span.end) !== span.text)
    return `characters ${span.start}–${span.end} of message ${span.message} part ${span.part} are not the span's text`;
  return undefined;
}

/**
 * The matcher kind for a human span: it decides only the word-boundary check (lib/evaluation
 * candidates `isStandalone`). Single-token locators and live handles get the id/url/path boundary
 * rule (so `JOB-2222` is not found inside `JOB-22222`), numeric evidence the number rule; prose
 * spans match as exact substrings.
 */
export function matchKindFor(type: DependencyType, text: string): DependencyKind {
  const token = !/\s/.test(text);
  if (type === "behavioral_contract") return "constraint";
  if (type === "verbatim_source" || !token) return "verbatim";
  if (type === "evidence_detail") return /^[-+]?[$€£¥]?\d[\d,]*(?:\.\d+)?%?$/.test(text) ? "number" : "identifier";
  return "id";
}

/** The `Dependency` of an added label (`id` = `human:<labelId>`); spans must be checked first. */
export function addedDependency(label: DependencyLabel): Dependency {
  if (label.decision !== "add" || !label.prefix || !label.future || !label.type) throw new RangeError(`label ${label.labelId} is not an added dependency`);
  const { prefix, future } = label;
  return {
    id: `human:${label.labelId}`,
    value: prefix.text,
    kind: matchKindFor(label.type, prefix.text),
    plantedAt: { message: prefix.message, part: prefix.part },
    alsoAt: [],
    prefixParts: 1,
    usedAt: { message: future.message, part: future.part },
    usedBeforeNextRequest: false,
  };
}

export interface CheckAddedInput {
  session: Session;
  index: ContextIndex;
  /** The policy's result at the label's cut. */
  result: CheckViewInput["result"];
  labels: readonly DependencyLabel[];
}

/**
 * Checks the added dependencies among `labels` against one projected view. Labels whose spans do
 * not match the session are returned as problems, never silently checked.
 */
export function checkAddedDependencies(input: CheckAddedInput): { checked: CheckedDependency[]; problems: SpanProblem[] } {
  const problems: SpanProblem[] = [];
  const dependencies: Dependency[] = [];
  for (const label of input.labels) {
    if (label.decision !== "add" || label.retracted) continue;
    if (label.ref.cut !== input.result.cut) throw new RangeError(`label ${label.labelId} is for cut ${label.ref.cut}, the result for cut ${input.result.cut}`);
    const bad = (["prefix", "future"] as const).flatMap((field) => {
      const message = spanProblem(input.session, label[field]!);
      return message ? [{ labelId: label.labelId, field, message }] : [];
    });
    if (bad.length > 0) problems.push(...bad);
    else dependencies.push(addedDependency(label));
  }
  if (dependencies.length === 0) return { checked: [], problems };
  return { checked: checkView({ session: input.session, index: input.index, dependencies, result: input.result }), problems };
}
