import type { ContextIndex } from "../context/objects";
import type { PolicyResult } from "../policies/types";
import type { Session } from "../trace/model";
import { checkView } from "./check-view";
import { extractDependencies, type ExtractOptions } from "./dependencies";
import { overallScore, scoreDimensions } from "./judge-scores";
import type { CheckedDependency, DependencySet } from "./types";
import type { EvidenceDependency, JudgeVerdict } from "./verdict-schema";
import type { DependencyMatcher } from "./view-texts";

/**
 * The deterministic dependency judge (the default judge of a replay cut): extracts what the real
 * future needed from the prefix, checks it against the policy's view, and answers in the shared
 * Listing 3 schema. `valid` and `noImpact` are the same binary result here: no dependency missing.
 * `uncertain` is set when there is too little future to judge (fewer than `MIN_FUTURE_STEPS`
 * assistant steps or `MIN_FUTURE_CHARS` characters) or when no dependency was found — a no-impact
 * verdict then means "nothing detectable", not "verified".
 */
export const MIN_FUTURE_STEPS = 2;
export const MIN_FUTURE_CHARS = 200;

export interface JudgeDependenciesInput {
  session: Session;
  index: ContextIndex;
  cut: number;
  result: Pick<PolicyResult, "view" | "sidecars" | "actions" | "cut">;
  /** Precomputed for this cut (shared across policies); extracted when absent. */
  dependencies?: DependencySet;
  matcher?: DependencyMatcher;
  extract?: ExtractOptions;
  /** Evidence entries kept (missing first); default 200. Counts always cover all. */
  evidenceLimit?: number;
  /** Longer values are shortened in the evidence; default 200 characters. */
  maxValueChars?: number;
}

export function judgeDependencies(input: JudgeDependenciesInput): JudgeVerdict {
  const { session, index, cut, result } = input;
  if (result.cut !== cut) throw new RangeError(`result is for cut ${result.cut}, not ${cut}`);
  const set = input.dependencies ?? extractDependencies(session, index, cut, input.extract);
  if (set.cut !== cut || set.sessionId !== session.id) throw new RangeError(`dependencies are for ${set.sessionId} cut ${set.cut}`);
  const checked = checkView({ session, index, dependencies: set.dependencies, result, ...(input.matcher ? { matcher: input.matcher } : {}) });
  const missing = checked.filter((d) => d.status === "missing");
  const recoverable = checked.filter((d) => d.status === "recoverable").length;
  const noImpact = missing.length === 0;
  const uncertain = set.futureAssistantSteps < MIN_FUTURE_STEPS || set.futureAssistantChars < MIN_FUTURE_CHARS || checked.length === 0;
  const dimension_scores = scoreDimensions(session, checked);
  const byCategory: Record<string, number> = {};
  for (const d of missing) byCategory[d.category!] = (byCategory[d.category!] ?? 0) + 1;
  const ordered = [...missing, ...checked.filter((d) => d.status === "recoverable"), ...checked.filter((d) => d.status === "visible")];
  const limit = input.evidenceLimit ?? 200;
  return {
    valid: noImpact,
    uncertain,
    overall_score: overallScore(dimension_scores),
    summary: summarize(checked, missing, recoverable, uncertain),
    dimension_scores,
    failure_culprit: culprit(missing),
    noImpact,
    evidence: {
      judge: "dependency",
      counts: { total: checked.length, visible: checked.length - missing.length - recoverable, recoverable, missing: missing.length, byCategory },
      dependencies: ordered.slice(0, limit).map((d) => toEvidence(d, input.maxValueChars ?? 200)),
      omitted: Math.max(0, ordered.length - limit),
    },
  };
}

/** The target that lost the most missing dependencies (ties: the earliest planted); null when none. */
function culprit(missing: readonly CheckedDependency[]): { target_id: string } | null {
  const tally = new Map<string, { count: number; first: number }>();
  for (const d of missing) {
    const target = d.lostBy?.target ?? d.plantedAt.objectId;
    if (!target) continue;
    const entry = tally.get(target) ?? { count: 0, first: d.plantedAt.message };
    entry.count++;
    entry.first = Math.min(entry.first, d.plantedAt.message);
    tally.set(target, entry);
  }
  let best: [string, { count: number; first: number }] | undefined;
  for (const entry of tally) if (!best || entry[1].count > best[1].count || (entry[1].count === best[1].count && entry[1].first < best[1].first)) best = entry;
  return best ? { target_id: best[0] } : null;
}

function summarize(checked: readonly CheckedDependency[], missing: readonly CheckedDependency[], recoverable: number, uncertain: boolean): string {
  const head = `${checked.length} future dependencies: ${checked.length - missing.length - recoverable} visible, ${recoverable} recoverable, ${missing.length} missing`;
  const hedge = uncertain ? " (uncertain: little future or nothing detectable)" : "";
  if (missing.length === 0) return `${head} — no impact${hedge}.`;
  const shown = missing.slice(0, 3).map((d) => {
    const how = d.lostBy ? ` (${d.lostBy.action} of ${d.lostBy.target})` : "";
    return `${d.category}: ${JSON.stringify(shorten(d.value, 60))}${how}`;
  });
  return `${head} — ${shown.join("; ")}${missing.length > 3 ? `; +${missing.length - 3} more` : ""}${hedge}.`;
}

function toEvidence(d: CheckedDependency, maxChars: number): EvidenceDependency {
  const value = shorten(d.value, maxChars);
  return {
    id: d.id,
    value,
    ...(value !== d.value ? { valueLength: d.value.length } : {}),
    kind: d.kind,
    status: d.status,
    ...(d.category ? { category: d.category } : {}),
    plantedAt: d.plantedAt,
    usedAt: d.usedAt,
    ...(d.lostBy ? { lostBy: d.lostBy } : {}),
    ...(d.sidecar ? { sidecar: d.sidecar } : {}),
  };
}

function shorten(value: string, max: number): string {
  return value.length <= max ? value : `${value.slice(0, max - 1)}…`;
}
