import type { Session } from "../../trace/model";
import { checkView } from "./check-view";
import { extractDependencies, type ExtractOptions } from "./dependencies";
import { overallScore, scoreDimensions } from "./judge-scores";
import { restoreCosts } from "./restores";
import { DEPENDENCY_KINDS, type CheckedDependency, type DependencySet, type JudgedView, type JudgeIndex } from "./types";
import type { EvidenceDependency, JudgeVerdict, StatusCounts } from "./verdict-schema";
import type { DependencyMatcher } from "./view-texts";

/**
 * The deterministic dependency judge (the default judge of a replay cut): extracts what the real
 * future needed from the prefix, checks it against the policy's view, and answers in the shared
 * Listing 3 schema, with three binary readings: `visibleNoImpact` (every dependency visible),
 * `restorableNoImpact` (none lost; some may need a restore) and the headline `noImpact`, which is
 * `restorableNoImpact` (seed 000: dependencies "remain visible or recoverable"); restores are
 * charged in `evidence.restores` instead. `valid` equals `noImpact`.
 * `uncertain` is set when there is too little future to judge (fewer than `MIN_FUTURE_STEPS`
 * assistant steps or `MIN_FUTURE_CHARS` characters) or when no dependency was found — a no-impact
 * verdict then means "nothing detectable", not "verified".
 */
export const MIN_FUTURE_STEPS = 2;
export const MIN_FUTURE_CHARS = 200;

export interface JudgeDependenciesInput {
  session: Session;
  index: JudgeIndex;
  cut: number;
  result: JudgedView;
  /** Tokens of a text, with the run's tokenizer (restore costs). */
  countTokens: (text: string) => number;
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
  return judgeWithChecks(input).verdict;
}

/**
 * The verdict and every checked dependency behind it (the verdict's evidence keeps at most
 * `evidenceLimit`): a views export writes them all without checking the view a second time.
 */
export function judgeWithChecks(input: JudgeDependenciesInput): { verdict: JudgeVerdict; checked: CheckedDependency[] } {
  const { session, index, cut, result } = input;
  if (result.cut !== cut) throw new RangeError(`result is for cut ${result.cut}, not ${cut}`);
  const set = input.dependencies ?? extractDependencies(session, index, cut, input.extract);
  if (set.cut !== cut || set.sessionId !== session.id) throw new RangeError(`dependencies are for ${set.sessionId} cut ${set.cut}`);
  const checked = checkView({ session, index, dependencies: set.dependencies, result, ...(input.matcher ? { matcher: input.matcher } : {}) });
  const lost = checked.filter((d) => d.status === "lost");
  const restorable = checked.filter((d) => d.status === "restorable");
  const restorableNoImpact = lost.length === 0;
  const visibleNoImpact = restorableNoImpact && restorable.length === 0;
  const noImpact = restorableNoImpact;
  const uncertain = set.futureAssistantSteps < MIN_FUTURE_STEPS || set.futureAssistantChars < MIN_FUTURE_CHARS || checked.length === 0;
  const dimension_scores = scoreDimensions(session, checked);
  const byCategory: Record<string, number> = {};
  for (const d of lost) byCategory[d.category!] = (byCategory[d.category!] ?? 0) + 1;
  const restores = restoreCosts(checked, result.sidecars, input.countTokens);
  const ordered = [...lost, ...restorable, ...checked.filter((d) => d.status === "visible")];
  const limit = input.evidenceLimit ?? 200;
  const verdict: JudgeVerdict = {
    valid: noImpact,
    uncertain,
    overall_score: overallScore(dimension_scores),
    summary: summarize(checked, lost, restorable.length, restores.length, uncertain),
    dimension_scores,
    failure_culprit: culprit(lost),
    noImpact,
    visibleNoImpact,
    restorableNoImpact,
    evidence: {
      judge: "dependency",
      counts: {
        total: checked.length,
        visible: checked.length - lost.length - restorable.length,
        restorable: restorable.length,
        lost: lost.length,
        byCategory,
        byKind: countByKind(checked),
      },
      restores,
      dependencies: ordered.slice(0, limit).map((d) => toEvidence(d, input.maxValueChars ?? 200)),
      omitted: Math.max(0, ordered.length - limit),
    },
  };
  return { verdict, checked };
}

/** Visible / restorable / lost per dependency kind (kinds with no dependency are left out). */
function countByKind(checked: readonly CheckedDependency[]): Record<string, StatusCounts> {
  const out: Record<string, StatusCounts> = {};
  for (const kind of DEPENDENCY_KINDS) {
    const of = checked.filter((d) => d.kind === kind);
    if (of.length === 0) continue;
    out[kind] = { visible: 0, restorable: 0, lost: 0 };
    for (const d of of) out[kind][d.status]++;
  }
  return out;
}

/** The target that lost the most dependencies (ties: the earliest planted); null when none. */
function culprit(lost: readonly CheckedDependency[]): { target_id: string } | null {
  const tally = new Map<string, { count: number; first: number }>();
  for (const d of lost) {
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

function summarize(
  checked: readonly CheckedDependency[],
  lost: readonly CheckedDependency[],
  restorable: number,
  restores: number,
  uncertain: boolean,
): string {
  const head = `${checked.length} future dependencies: ${checked.length - lost.length - restorable} visible, ${restorable} restorable (${restores} ${restores === 1 ? "restore" : "restores"}), ${lost.length} lost`;
  const hedge = uncertain ? " (uncertain: little future or nothing detectable)" : "";
  if (lost.length === 0) return `${head} — no impact${hedge}.`;
  const shown = lost.slice(0, 3).map((d) => {
    const how = d.lostBy ? ` (${d.lostBy.action} of ${d.lostBy.target})` : "";
    return `${d.category}: ${JSON.stringify(shorten(d.value, 60))}${how}`;
  });
  return `${head} — ${shown.join("; ")}${lost.length > 3 ? `; +${lost.length - 3} more` : ""}${hedge}.`;
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
